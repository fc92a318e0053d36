/**
 * What the audit reads (Audit): every published task's tallies with its effective human
 * label as gold (never hidden import gold — docs/engine.md §10), split into the label sets each part
 * of the audit is defined on.
 */
import type { EngineSettings } from '../../../shared/api'
import type { TaskTallies } from '../../engine'
import type { Actor, FitRecord, JsonObject, Store } from '../../store'
import { loadCorpus, type Corpus } from '../fit/corpus'
import { readLabelPairs } from '../fit/record'

export interface AuditData {
  corpus: Corpus
  /** Scored by nested CV: human-labeled tasks the label-use policy lets a fit train on (§10). */
  labeled: TaskTallies[]
  /** Tasks whose effective label is `random`: the only exchangeable sample (§8, §10). */
  random: TaskTallies[]
  fit: FitRecord | null
  /** The labels the current fit was fitted on (its seat evidence); `labeled` when there is no fit. */
  fitLabeled: TaskTallies[]
}

/**
 * The fit's own label sets (its certificate keeps them as [task, label] pairs), so a seat's
 * evidence is counted on exactly the tasks its reliability came from — even after newer labels.
 */
function fitLabelSet(corpus: Corpus, fit: FitRecord): TaskTallies[] | null {
  const sets = (fit.certificate?.labels ?? null) as JsonObject | null
  if (sets === null) return null
  const pairs = [...readLabelPairs(sets.calibration), ...readLabelPairs(sets.extra)]
  return pairs.flatMap(([id, label]) => {
    const t = corpus.byId.get(id)
    const gold = t === undefined ? -1 : t.candidates.indexOf(label)
    return t === undefined || gold < 0 ? [] : [{ ...t, gold }]
  })
}

/** Loads tallies (backfilling tasks imported before tallies existed, as a fit does) and labels. */
export async function loadAuditData(store: Store, settings: EngineSettings, actor: Actor): Promise<AuditData> {
  const corpus = await loadCorpus(store, actor)
  const labeled: TaskTallies[] = []
  const random: TaskTallies[] = []
  for (const t of corpus.tasks) {
    const source = corpus.labels.get(t.task)?.source
    if (source === undefined || t.gold < 0) continue
    if (source === 'random') random.push(t)
    if (source === 'random' || settings.labelPolicy === 'all') labeled.push(t)
  }
  const fit = await store.currentFit()
  const fitLabeled = (fit === null ? null : fitLabelSet(corpus, fit)) ?? labeled
  return { corpus, labeled, random, fit, fitLabeled }
}
