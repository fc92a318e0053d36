/**
 * What another absolute β would do under the current fit, read from its stored bounds: no refit,
 * no engine. A fit with its what-if figures (../what-if-figures.ts, saved after its decide) answers
 * from one stored chunk and a binary search, minus the parts of its tasks that now have a live
 * label (each read from its row, as the scan does): the cost grows with the labels, never with the
 * fit. A fit without them — decided before they were stored, or not yet given them — is read as it
 * always was: one pass over the packed bound lists of the rows that can reach the threshold (the
 * gap index narrows them), the counts of the rest from the fit's stored counts (decided-counts.ts).
 */
import { StoreError, type BudgetWhatIfInput, type BudgetWhatIfResult, type WhatIfFigures } from '../contract'
import type { StoredNumbers } from '../decision-numbers'
import { decisionsTable } from '../fit-decisions'
import { LIVE_LABEL } from '../label-rules'
import { rowOf, rowsOf, type Plan } from '../plan'
import { checkId, checkIsoUtc, checkNullableFinite } from '../validate'
import { checkWhatIfFigures, CompensatedSum, pointAt, rowPart, WhatIfBuilder } from '../what-if-figures'
import { writeFigures } from './what-if-rows'
import { decidedCounts } from './decided-counts'
import type { Dialect } from './dialect'
import { latestDecidedFitId, requireFit } from './fits'

const NO_LIVE_LABEL = `NOT EXISTS (SELECT 1 FROM labels l WHERE l.task_id = d.task_id AND ${LIVE_LABEL('l')})`

/**
 * The fit's rows of the tasks with a live label, each a probe of the fit's decisions by task id
 * (a correlated subquery, as decided-counts.ts's LABELED_BY_DECISION and for its reason: the
 * labels drive it, never a walk of the decisions). A task without a row reads as null bounds.
 */
const LABELED_ROWS = (table: string): string => `SELECT
    (SELECT d.bound FROM ${table} d WHERE d.task_id = lt.task_id) AS bound,
    (SELECT d.why FROM ${table} d WHERE d.task_id = lt.task_id) AS why
  FROM (SELECT DISTINCT l.task_id FROM labels l WHERE ${LIVE_LABEL('l')}) lt`

/** Rows a figures build reads per statement (in task order, within its one snapshot). */
const BUILD_PAGE = 20_000

export function* budgetWhatIf(d: Dialect, input: BudgetWhatIfInput): Plan<BudgetWhatIfResult> {
  const threshold = checkNullableFinite(input?.threshold, 'threshold')
  if (threshold === null) throw new StoreError('bad_input', 'threshold must be a finite number', { field: 'threshold' })
  const gapAtMost = checkNullableFinite(input.gapAtMost, 'gapAtMost')
  const fitId = yield* latestDecidedFitId(d)
  if (fitId === null) return { fitId: null, undecided: 0, acted: 0, expectedWrong: 0, boundedTerms: 0 }
  const table = decisionsTable(fitId)
  const stored = yield* decidedCounts(d, fitId)
  const undecided =
    stored === null
      ? Number((yield* rowOf<{ n: number }>(`SELECT count(*) AS n FROM ${table} d WHERE ${NO_LIVE_LABEL}`))?.n ?? 0)
      : stored.acted + stored.deferred
  const figured = yield* fromFigures(fitId, table, threshold, gapAtMost)
  return { fitId, undecided, ...(figured ?? (yield* scan(table, threshold, gapAtMost))) }
}

type Answer = Pick<BudgetWhatIfResult, 'acted' | 'expectedWrong' | 'boundedTerms'>

/**
 * The answer from the fit's figures, or null where they cannot give exactly the scan's: none
 * stored, or `gapAtMost` would leave out a row that acts (a stored gap above it).
 */
function* fromFigures(fitId: string, table: string, threshold: number, gapAtMost: number | null): Plan<Answer | null> {
  const marked = yield* rowOf<{ entries: number | null }>('SELECT what_if_entries AS entries FROM fits WHERE id = ?', fitId)
  if (marked === undefined || marked.entries === null) return null
  const chunk = yield* rowOf<{ entries: Uint8Array }>('SELECT entries FROM fit_what_if WHERE fit_id = ? AND top_bound >= ? ORDER BY top_bound LIMIT 1', fitId, threshold)
  const point = pointAt(chunk?.entries ?? null, threshold)
  if (point === null || (gapAtMost !== null && point.maxGap > gapAtMost)) return null
  let acted = point.acted
  let boundedTerms = point.boundedTerms
  const sum = new CompensatedSum()
  sum.add(point.expectedWrong)
  for (const r of yield* rowsOf<{ bound: StoredNumbers | null; why: StoredNumbers | null }>(LABELED_ROWS(table))) {
    const part = r.bound === null ? null : rowPart(r.bound, r.why, threshold)
    if (part === null) continue
    acted -= part.acted
    boundedTerms -= part.bounded
    sum.add(-part.term)
  }
  return { acted, expectedWrong: sum.value(), boundedTerms }
}

/** The answer from one pass over the rows that can act (the gap index narrows them when `gapAtMost` is given). */
function* scan(table: string, threshold: number, gapAtMost: number | null): Plan<Answer> {
  // `decision IN (…)` leads the (decision, gap) index, so the gap range is two index ranges.
  const narrow = gapAtMost === null ? '' : `AND d.decision IN ('act', 'defer') AND d.gap <= ?`
  const rows = yield* rowsOf<{ bound: StoredNumbers; why: StoredNumbers | null }>(
    `SELECT d.bound, d.why FROM ${table} d WHERE d.bound IS NOT NULL ${narrow} AND ${NO_LIVE_LABEL}`,
    ...(gapAtMost === null ? [] : [gapAtMost])
  )
  let acted = 0
  let boundedTerms = 0
  // Compensated: the figure does not depend on the order the rows come in (index or key).
  const sum = new CompensatedSum()
  for (const r of rows) {
    const part = rowPart(r.bound, r.why, threshold)
    if (part === null) continue
    acted += part.acted
    boundedTerms += part.bounded
    sum.add(part.term)
  }
  return { acted, expectedWrong: sum.value(), boundedTerms }
}

/**
 * A decided fit's what-if figures, worked out from all its rows in one snapshot (a read: the
 * rows are immutable, and a label's write never waits for it); null for a fit not decided.
 */
export function* buildWhatIfFigures(d: Dialect, fitId: string): Plan<WhatIfFigures | null> {
  const fit = yield* requireFit(d, fitId)
  if (fit.decidedAt === null) return null
  const table = decisionsTable(fitId)
  // A table written before migration 9 has no peaks (only a re-decide's copy needs them).
  const hasPeak = (yield* rowsOf<{ name: string }>(d.tableColumns, table)).some((c) => c.name === 'peak')
  const builder = new WhatIfBuilder()
  let after: string | null = null
  for (;;) {
    const page: { task_id: string; bound: StoredNumbers | null; why: StoredNumbers | null; gap: number | null; peak: number | null }[] = yield* rowsOf(
      `SELECT task_id, bound, why, gap, ${hasPeak ? 'peak' : 'NULL AS peak'} FROM ${table} WHERE bound IS NOT NULL ${after === null ? '' : 'AND task_id > ?'} ORDER BY task_id LIMIT ?`,
      ...(after === null ? [] : [after]), BUILD_PAGE
    )
    for (const r of page) builder.add(r.bound, r.why, r.gap === null ? null : Number(r.gap), r.peak === null ? null : Number(r.peak))
    if (page.length < BUILD_PAGE) break
    after = page[page.length - 1].task_id
  }
  return builder.finish()
}

/**
 * Stores a decided fit's what-if figures (buildWhatIfFigures'), replacing any it had; from then on
 * its what-if reads them. Derived from the fit's immutable rows like an index, so no audit row.
 * Checked first: figures that are not the builder's shape are refused, nothing written.
 */
export function* saveWhatIfFigures(d: Dialect, fitId: string, figures: WhatIfFigures): Plan<number> {
  const checked = checkWhatIfFigures(figures)
  const fit = yield* requireFit(d, checkId(fitId, 'fitId'))
  if (fit.decidedAt === null) throw new StoreError('conflict', `fit ${fitId} has no decisions, so it has no what-if figures`, { fitId })
  yield* writeFigures(fitId, checked)
  return checked.entries
}

/** Live labels recorded after `since` and, when `until` is given, not after it. */
export function* countLabelsSince(since: string, until: string | null): Plan<number> {
  const from = checkIsoUtc(since, 'since')
  const to = until === null ? null : checkIsoUtc(until, 'until')
  const upTo = to === null ? '' : 'AND l.at <= ?'
  return Number((yield* rowOf<{ n: number }>(`SELECT count(*) AS n FROM labels l WHERE l.at > ? ${upTo} AND ${LIVE_LABEL('l')}`, from, ...(to === null ? [] : [to])))?.n ?? 0)
}
