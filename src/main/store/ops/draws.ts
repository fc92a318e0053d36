/**
 * Calibrate's draws, the server's to make (docs/engine.md §10 needs C uniform): each login has at
 * most one open draw — the task, the session it was handed to, when it expires, the label given on
 * it. Asking again returns the open draw while it lives and is unlabeled, so drawing many and
 * labeling the easy ones is not possible; a labeled one too, until the console moves on from it
 * (`after`), so its labeler can still replace the label on the same draw; a skip (or a draw left to expire) is counted per login and
 * capped, and a skipped task is left out of that login's later draws — the only exclusion a draw
 * takes. At the cap an expired draw comes back as the same task. A console's `random` label is taken
 * only on the open draw (label-ownership.ts `requireDrawn`).
 */
import type { Actor, CalibrateDraw, CalibrateDrawInput, DrawCount } from '../contract'
import { StoreError } from '../contract'
import { drawablePredicate } from '../label-rules'
import { rowOf, rowsOf, run, type Plan } from '../plan'
import { checkInt } from '../validate'
import type { Dialect } from './dialect'
import { drawUnlabeledPlan } from './team'

/** A login may skip this many draws before any blind label… */
export const SKIP_BASE = 10
/** …and one more for every this many blind labels it gave on its draws. */
export const LABELS_PER_SKIP = 4

/** The skips a login that gave `labeled` blind labels on its draws may make in all. */
export const skipsAllowed = (labeled: number): number => SKIP_BASE + Math.floor(labeled / LABELS_PER_SKIP)

export type OpenDrawRow = { reviewer: string; session_id: string; task_id: string; drawn_at: string; expires_at: string; label_id: string | null }

const OPEN_COLUMNS = 'reviewer, session_id, task_id, drawn_at, expires_at, label_id'

export function* openDrawOf(d: Dialect, reviewer: string, lock = false): Plan<OpenDrawRow | undefined> {
  return yield* rowOf<OpenDrawRow>(`SELECT ${OPEN_COLUMNS} FROM open_draws WHERE reviewer = ?${lock ? d.forUpdate() : ''}`, reviewer)
}

const later = (now: string, ms: number): string => new Date(Date.parse(now) + ms).toISOString()

function* countsOf(reviewer: string): Plan<Omit<DrawCount, 'reviewer'>> {
  const row = yield* rowOf<Omit<DrawCount, 'reviewer'>>('SELECT draws, labeled, skips FROM draw_counts WHERE reviewer = ?', reviewer)
  return row === undefined ? { draws: 0, labeled: 0, skips: 0 } : { draws: Number(row.draws), labeled: Number(row.labeled), skips: Number(row.skips) }
}

export function* countDraw(reviewer: string, what: 'draws' | 'labeled' | 'skips'): Plan<void> {
  yield* run(`INSERT INTO draw_counts (reviewer, ${what}) VALUES (?, 1) ON CONFLICT (reviewer) DO UPDATE SET ${what} = draw_counts.${what} + 1`, reviewer)
}

function* openDraw(now: string, taskId: string, actor: Actor, ttlMs: number): Plan<string> {
  const expiresAt = later(now, ttlMs)
  yield* run(
    `INSERT INTO open_draws (${OPEN_COLUMNS}) VALUES (?, ?, ?, ?, ?, NULL)
     ON CONFLICT (reviewer) DO UPDATE SET session_id = excluded.session_id, task_id = excluded.task_id, drawn_at = excluded.drawn_at, expires_at = excluded.expires_at, label_id = NULL`,
    actor.reviewer, actor.sessionId, taskId, now, expiresAt
  )
  // The old per-session record stays a record of every draw made.
  yield* run(`INSERT INTO draws (session_id, task_id, reviewer, drawn_at) VALUES (?, ?, ?, ?) ON CONFLICT (session_id, task_id) DO NOTHING`, actor.sessionId, taskId, actor.reviewer, now)
  yield* countDraw(actor.reviewer, 'draws')
  return expiresAt
}

/** Makes `taskId` the actor's open draw (a test's chosen draw; Calibrate's is `calibrateDraw`). True when it was not already. */
export function* recordDraw(d: Dialect, now: string, taskId: string, actor: Actor, ttlMs = 30 * 60_000): Plan<boolean> {
  const task = yield* rowOf(`SELECT t.id FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = ? AND i.state = 'published'`, taskId)
  if (task === undefined) throw new StoreError('not_found', `no task ${taskId}`, { taskId })
  const open = yield* openDrawOf(d, actor.reviewer, true)
  if (open !== undefined && open.task_id === taskId && open.session_id === actor.sessionId && open.label_id === null && open.expires_at > now) return false
  yield* openDraw(now, taskId, actor, checkInt(ttlMs, 'ttlMs', 1))
  return true
}

function* drawableFor(taskId: string, reviewer: string, reviewersPerTask: number): Plan<boolean> {
  const p = drawablePredicate('t.id', reviewersPerTask, reviewer)
  return (yield* rowOf(`SELECT 1 AS ok FROM tasks t WHERE t.id = ? AND ${p.sql}`, taskId, ...p.params)) !== undefined
}

export function* calibrateDraw(d: Dialect, now: string, input: CalibrateDrawInput, actor: Actor): Plan<CalibrateDraw> {
  const ttlMs = checkInt(input.ttlMs, 'ttlMs', 1)
  const perTask = checkInt(input.reviewersPerTask, 'reviewersPerTask', 1)
  const reviewer = actor.reviewer
  const open = yield* openDrawOf(d, reviewer, true)
  const counts = yield* countsOf(reviewer)
  const allowed = skipsAllowed(counts.labeled)
  const result = (drawn: { taskId: string | null; unlabeled: number; randomLabels: number }, expiresAt: string | null, skips: number, labeled = false): CalibrateDraw => ({
    ...drawn, expiresAt, skips, skipsLeft: Math.max(0, allowed - skips), labeled
  })
  // A labeled draw stands while it lives until the console moves on from it (`after`): asked again
  // (any label's refetch), it is the same task, so its labeler can still change that label on it.
  if (open !== undefined && open.label_id !== null && !input.skip && input.after !== open.task_id && open.expires_at > now) {
    yield* run('UPDATE open_draws SET session_id = ? WHERE reviewer = ?', actor.sessionId, reviewer)
    const counted = yield* drawUnlabeledPlan({ at: 0, exclude: yield* skippedBy(reviewer), spotCheckOnly: false, reviewer, reviewersPerTask: perTask }, d)
    return result({ taskId: open.task_id, unlabeled: counted.unlabeled, randomLabels: counted.randomLabels }, open.expires_at, counts.skips, true)
  }
  // An open draw not labeled yet, of a task still the login's to label blind: it stands until
  // labeled, skipped or expired (then it counts as a skip).
  if (open !== undefined && open.label_id === null && (yield* drawableFor(open.task_id, reviewer, perTask))) {
    if (!input.skip && open.expires_at > now) {
      yield* run('UPDATE open_draws SET session_id = ? WHERE reviewer = ?', actor.sessionId, reviewer)
      const counted = yield* drawUnlabeledPlan({ at: 0, exclude: yield* skippedBy(reviewer), spotCheckOnly: false, reviewer, reviewersPerTask: perTask }, d)
      return result({ taskId: open.task_id, unlabeled: counted.unlabeled, randomLabels: counted.randomLabels }, open.expires_at, counts.skips)
    }
    if (counts.skips >= allowed) {
      if (input.skip) {
        throw new StoreError(
          'unauthorized',
          `${reviewer} has skipped ${counts.skips} draws, the most allowed (${SKIP_BASE}, and one more per ${LABELS_PER_SKIP} blind labels): label task ${open.task_id} to draw again`,
          { taskId: open.task_id, reason: 'skip-limit', skips: counts.skips }
        )
      }
      // Expired at the cap: the same task again, so waiting out a draw is no way around the cap.
      const expiresAt = later(now, ttlMs)
      yield* run('UPDATE open_draws SET session_id = ?, drawn_at = ?, expires_at = ? WHERE reviewer = ?', actor.sessionId, now, expiresAt, reviewer)
      const counted = yield* drawUnlabeledPlan({ at: 0, exclude: yield* skippedBy(reviewer), spotCheckOnly: false, reviewer, reviewersPerTask: perTask }, d)
      return result({ taskId: open.task_id, unlabeled: counted.unlabeled, randomLabels: counted.randomLabels }, expiresAt, counts.skips)
    }
    yield* run('INSERT INTO draw_skips (reviewer, task_id) VALUES (?, ?) ON CONFLICT (reviewer, task_id) DO NOTHING', reviewer, open.task_id)
    yield* countDraw(reviewer, 'skips')
    counts.skips += 1
  }
  const drawn = yield* drawUnlabeledPlan({ at: input.at, exclude: yield* skippedBy(reviewer), spotCheckOnly: input.spotCheckOnly, reviewer, reviewersPerTask: perTask }, d)
  if (drawn.taskId === null) {
    yield* run('DELETE FROM open_draws WHERE reviewer = ? AND label_id IS NULL', reviewer)
    return result(drawn, null, counts.skips)
  }
  return result(drawn, yield* openDraw(now, drawn.taskId, actor, ttlMs), counts.skips)
}

/** The tasks the login skipped: at most its skip allowance, so the exclusion stays bounded. */
function* skippedBy(reviewer: string): Plan<string[]> {
  return (yield* rowsOf<{ task_id: string }>('SELECT task_id FROM draw_skips WHERE reviewer = ? ORDER BY task_id', reviewer)).map((r) => r.task_id)
}

/** Every login's draws, blind labels on them and skips, by reviewer name. */
export function* drawCounts(): Plan<DrawCount[]> {
  const rows = yield* rowsOf<DrawCount>('SELECT reviewer, draws, labeled, skips FROM draw_counts')
  return rows
    .map((r) => ({ reviewer: r.reviewer, draws: Number(r.draws), labeled: Number(r.labeled), skips: Number(r.skips) }))
    .sort((a, b) => (a.reviewer < b.reviewer ? -1 : a.reviewer > b.reviewer ? 1 : 0))
}
