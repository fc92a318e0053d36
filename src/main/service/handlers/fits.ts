/** Fit, re-decide, history, rollback, refit status, and the engine settings fits read. */
import type { ServerHandlers } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import { topicsOf } from '../../store'
import type { Core } from '../core'
import { actorOf } from '../core'
import { dismissDefaultsNotice, readDefaultsNotice, readEngineSettings, updateEngineSettings } from '../engine-settings'
import { fitDetail, fitSummary } from '../fit/views'
import { budgetWhatIf, refitChange } from '../fit/what-if'
import { requireEngineRights } from '../team-settings'

type H = Pick<
  ServerHandlers,
  | 'fits.run' | 'fits.redecide' | 'fits.list' | 'fits.get' | 'fits.rollback' | 'fits.status' | 'fits.whatIf' | 'fits.change'
  | 'engine.getSettings' | 'engine.updateSettings' | 'engine.defaultsNotice' | 'engine.dismissDefaultsNotice'
>

export function fitHandlers(core: Core): H {
  return {
    'fits.run': async (_args, ctx) => fitSummary(await core.fits.now(null, actorOf(ctx)), true),
    'fits.redecide': async ({ budget, bound }, ctx) => {
      await requireEngineRights(core.store(), ctx, 'deciding under another budget')
      const current = await core.store().currentFit()
      if (current === null) throw new ApiError('not_found', 'no fit to decide under yet: run a fit first')
      return fitSummary(await core.fits.now(bound === undefined ? { fitId: current.id, budget } : { fitId: current.id, budget, bound }, actorOf(ctx)), true)
    },
    'fits.list': async ({ limit }) => (await core.store().listFits(limit)).map((f) => fitSummary(f, f.current)),
    'fits.get': async ({ fitId }) => {
      const [fit, current] = await Promise.all([core.store().getFit(fitId), core.store().currentFit()])
      return fitDetail(fit, current?.id === fit.id)
    },
    'fits.rollback': async ({ fitId }, ctx) => {
      await requireEngineRights(core.store(), ctx, 'rolling back to another fit')
      const r = await core.store().rollbackFit(fitId, actorOf(ctx))
      core.models.clear()
      core.changed(r.topics)
      core.hub.emit({ type: 'fit-landed', fitId: r.value.id })
      return fitSummary(r.value, true)
    },
    'fits.status': async () => {
      const current = await core.store().currentFit()
      const recent = await core.store().recentLabels(1)
      const stale = recent.length > 0 && (current === null || recent[0].at > (current.decidedAt ?? current.createdAt))
      return { ...core.fits.status(), currentFitId: current?.id ?? null, stale }
    },
    'fits.whatIf': ({ settings }) => budgetWhatIf(core.store(), settings),
    'fits.change': ({ fitId }) => refitChange(core.store(), fitId),
    'engine.getSettings': () => readEngineSettings(core.store()),
    'engine.updateSettings': async ({ patch }, ctx) => {
      await requireEngineRights(core.store(), ctx, 'changing the engine settings')
      const s = await updateEngineSettings(core.store(), patch, actorOf(ctx))
      core.changed(topicsOf('setSettings'))
      return s
    },
    'engine.defaultsNotice': () => readDefaultsNotice(core.store()),
    'engine.dismissDefaultsNotice': async (_args, ctx) => {
      const dismissed = await dismissDefaultsNotice(core.store(), actorOf(ctx))
      if (dismissed) core.changed(topicsOf('setSettings'))
      return { dismissed }
    }
  }
}
