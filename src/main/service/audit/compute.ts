/**
 * The audit summary (`audit.summary` and `arbiter report`): computed from the database
 * alone, deterministically for a given database and settings (every split and fold is seeded),
 * except `computedAt`. A few seconds on the demo database, so the service runs it in a worker
 * thread (job-worker.ts) and caches it (cache.ts); the CLI runs it in-process.
 */
import type { AuditSummary, EngineSettings } from '../../../shared/api'
import type { Actor, Store } from '../../store'
import { actOrDeferView, AUDIT_SPLITS } from './act-or-defer'
import { loadAuditData } from './data'
import { agreementVotes } from '../fit/fit-labels'
import { AUDIT_METHODS, methodRows } from './methods'
import { agreementView } from './agreement'
import { liveFitFigures } from './live-fit'
import { reviewerRows } from './reviewers'
import { commonCandidates, seatRows } from './seats'

export type AuditProgress = (p: { done: number; total: number; message: string | null }) => void

export async function computeAudit(store: Store, settings: EngineSettings, actor: Actor, progress: AuditProgress = () => {}): Promise<AuditSummary> {
  const steps = AUDIT_METHODS.length + AUDIT_SPLITS + 1
  progress({ done: 0, total: steps, message: 'reading tallies and labels' })
  const data = await loadAuditData(store, settings, actor)
  const { corpus, labeled, random, fit, fitLabeled } = data

  const methods = methodRows(labeled, corpus.tasks, settings.seed, (done) =>
    progress({ done, total: steps, message: `nested CV on ${labeled.length} labeled tasks` })
  )
  const base = AUDIT_METHODS.length
  const actOrDefer = actOrDeferView(random, settings, corpus.tasks, (done) =>
    progress({ done: base + done, total: steps, message: `act-or-defer split ${done} of ${AUDIT_SPLITS}` })
  )
  const live = await liveFitFigures(store, fit)
  const confusionCandidates = commonCandidates(fitLabeled)
  // Label times as the fit read them (fit/record.ts): an unreadable time counts as 0.
  const timed = fitLabeled.map((t) => ({ tallies: t, time: Date.parse(corpus.labels.get(t.task)?.at ?? '') || 0 }))
  const seats = seatRows(fit, corpus.seats.ids, timed, confusionCandidates, await store.seatModels())
  const reviewers = reviewerRows(await store.labelCounts())
  const agreement = agreementView(await agreementVotes(store))
  progress({ done: steps, total: steps, message: null })
  return {
    fitId: fit?.id ?? null,
    methodInUse: fit?.method ?? settings.method,
    labeledTasks: labeled.length,
    randomLabels: random.length,
    methods,
    actOrDefer: { live, ...actOrDefer },
    seats,
    confusionCandidates,
    reviewers,
    agreement,
    computedAt: new Date().toISOString()
  }
}
