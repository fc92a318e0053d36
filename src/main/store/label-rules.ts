/**
 * The label rules of team mode as SQL, ONE text for both backends (several reviewers per
 * task). What differs between SQLite and PostgreSQL — the column that keeps recording order, and
 * how one parameter carries a list of ids — comes in a small `LabelDialect`; everything else is
 * written once here, so the two backends cannot drift apart.
 *
 * - live: a row with a label that no row supersedes (an undo marker has no label);
 * - a reviewer's vote: their latest live label on the task (an earlier one a client left live
 *   without superseding it does not vote twice);
 * - the effective label: the latest adjudicated live label; else, when the votes all agree, the
 *   latest live label; when they disagree, none (the task awaits adjudication and no fit uses it).
 *   With one reviewer this is their latest live label, as it always was;
 * - sealed, with N reviewers per task: a task stays sealed (Calibrate draws it for more reviewers) while
 *   it has votes from fewer than N reviewers, all of them blind (`random`) and none adjudicated.
 */

export interface LabelDialect {
  /** The labels' recording-order column (`rowid` in SQLite, the identity `seq` in PostgreSQL). */
  seq: string
  /** A set of ids read from ONE parameter, for `x IN <idSet>`. */
  idSet: string
  /** The same set as a FROM item with one column `id`, to drive a join from (`<idRows> h`). */
  idRows: string
  /** The value that parameter takes. */
  idParam(ids: readonly string[]): unknown
}

/** Live, not superseded, with a label: the SQL every "has a human label" test shares. */
export const LIVE_LABEL = (alias: string): string =>
  `${alias}.label IS NOT NULL AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = ${alias}.id)`

/** The task has a live label: it is `human`, out of the engine's queue, whatever its labels say. */
export const HAS_LIVE_LABEL = (taskExpr: string): string =>
  `EXISTS (SELECT 1 FROM labels hl WHERE hl.task_id = ${taskExpr} AND ${LIVE_LABEL('hl')})`

/**
 * Live label `alias` is its reviewer's vote: no later live, unadjudicated label of the same
 * reviewer on the task (an adjudicator who also labeled the task keeps their vote).
 */
export const IS_VOTE = (alias: string, d: LabelDialect): string =>
  `NOT EXISTS (SELECT 1 FROM labels n WHERE n.task_id = ${alias}.task_id AND n.reviewer = ${alias}.reviewer
    AND n.${d.seq} > ${alias}.${d.seq} AND NOT n.adjudicated AND ${LIVE_LABEL('n')})`

/**
 * The id of a task's effective label, or NULL. A live label qualifies when it is adjudicated or
 * when no reviewer's vote differs from it; adjudicated ones first, then the newest. When the votes
 * disagree no unadjudicated label qualifies, since each differs from some vote.
 */
export const EFFECTIVE_LABEL_ID = (taskExpr: string, d: LabelDialect): string =>
  `(SELECT e.id FROM labels e WHERE e.task_id = ${taskExpr} AND ${LIVE_LABEL('e')}
    AND (e.adjudicated OR NOT EXISTS (SELECT 1 FROM labels o WHERE o.task_id = e.task_id AND o.label <> e.label
      AND ${LIVE_LABEL('o')} AND ${IS_VOTE('o', d)}))
    ORDER BY e.adjudicated DESC, e.${d.seq} DESC LIMIT 1)`

/**
 * The task is still sealed: no live label that is adjudicated or not blind
 * (`random`), and live labels from fewer than N reviewers. One parameter: N.
 */
export const IS_SEALED = (taskExpr: string): string =>
  `NOT EXISTS (SELECT 1 FROM labels bx WHERE bx.task_id = ${taskExpr} AND ${LIVE_LABEL('bx')}
    AND (bx.adjudicated OR bx.source <> 'random'))
  AND (SELECT count(DISTINCT br.reviewer) FROM labels br WHERE br.task_id = ${taskExpr} AND ${LIVE_LABEL('br')}) < ?`

/** The reviewer has a live label on the task. One parameter: the reviewer. */
export const LABELED_BY = (taskExpr: string): string =>
  `EXISTS (SELECT 1 FROM labels bm WHERE bm.task_id = ${taskExpr} AND bm.reviewer = ? AND ${LIVE_LABEL('bm')})`

/**
 * The sealed rule: others' labels of the task are hidden from a reviewer while it has a
 * live label, none of it theirs, and is still sealed. The ONE text behind task
 * detail, queue rows, recent labels, the audit log (TeamStore.sealedTasks) and the label-based
 * filters of the queue and the exports. Two parameters: the reviewer, then N.
 */
export const SEALED_FOR = (taskExpr: string): string =>
  `(${HAS_LIVE_LABEL(taskExpr)} AND NOT ${LABELED_BY(taskExpr)} AND ${IS_SEALED(taskExpr)})`

/**
 * The task is the latest Calibrate drew for one of the reviewer's sessions (the one it shows; an
 * earlier draw of a session was moved on from) and they have recorded no label on it since: the
 * draw is open, and the engine's verdict stays hidden from them until they commit their blind label.
 * One parameter: the reviewer.
 */
export const OPEN_DRAW = (taskExpr: string): string =>
  // Not correlated with the task: both backends compute the (small) set once per statement, not per row.
  `${taskExpr} IN (SELECT dr.task_id FROM draws dr WHERE dr.reviewer = ?
    AND NOT EXISTS (SELECT 1 FROM draws dn WHERE dn.session_id = dr.session_id AND dn.drawn_at > dr.drawn_at)
    AND NOT EXISTS (SELECT 1 FROM labels dl WHERE dl.task_id = dr.task_id AND dl.reviewer = dr.reviewer
      AND dl.label IS NOT NULL AND dl.at >= dr.drawn_at))`

export type SqlPart = { sql: string; params: unknown[] }

/**
 * What Calibrate may draw for `reviewer` with N reviewers per task: with N = 1 a task without a
 * live label (the one-reviewer rule, unchanged); with N > 1 a task still sealed that this
 * reviewer has not labeled.
 */
export function drawablePredicate(taskExpr: string, reviewersPerTask: number, reviewer: string | null): SqlPart {
  const unlabeled = `NOT ${HAS_LIVE_LABEL(taskExpr)}`
  if (reviewersPerTask <= 1) return { sql: unlabeled, params: [] }
  // Unlabeled first: most tasks are, and one index probe settles them (the draw counts every task).
  if (reviewer === null) return { sql: `(${unlabeled} OR ${IS_SEALED(taskExpr)})`, params: [reviewersPerTask] }
  return { sql: `(${unlabeled} OR (${IS_SEALED(taskExpr)} AND NOT ${LABELED_BY(taskExpr)}))`, params: [reviewersPerTask, reviewer] }
}

/**
 * The task awaits adjudication: reviewers' votes disagree (so it has a live label but no
 * effective one) and it is no longer sealed (a blind batch is adjudicated once all N
 * reviewers have labeled it). One parameter: N.
 */
export const AWAITS_ADJUDICATION = (taskExpr: string, d: LabelDialect): string =>
  `${HAS_LIVE_LABEL(taskExpr)} AND ${EFFECTIVE_LABEL_ID(taskExpr, d)} IS NULL AND NOT (${IS_SEALED(taskExpr)})`
