/**
 * The adjudicator's rights over per-reviewer logins (`serve --reviewer alice --reviewer bob
 * --reviewer carol`), on either backend: while no adjudicator is named nobody rules, imports gold
 * as `random`, ends another's hold, changes the team settings (so no login can set N to 1 to read
 * a teammate's blind label) or moves the engine (its settings, a re-decide, a rollback); once the
 * operator names carol, only she does — and never rules on a disagreement she is part of. Without
 * logins the one local user keeps every right.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AdjudicationList, CallContext, EngineSettings, FitSummary, TaskDetail, TeamSettings } from '../../../src/shared/api'
import { DEFAULT_RENDERER_DIR } from '../../../src/main/console-server'
import { dispatch } from '../../../src/main/host/dispatch'
import { startWebHost, type WebHost } from '../../../src/main/host/web'
import { createService, type Service } from '../../../src/main/service'
import { openStore, type Store } from '../../../src/main/store'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'
import { rawRequest } from '../../helpers/http'
import { exampleTraces, seedTraces } from '../../helpers/seed'

interface Reply<T> {
  status: number
  value: T
  error: { code: string; message: string } | null
}

const TASK = 'trivia-0001'
const UNKNOWN_UPLOAD = '00000000-0000-4000-8000-000000000000'

export function defineAdjudicatorSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`who holds the adjudicator's rights, over per-reviewer logins on ${name}`, () => {
    let location: DbLocation | null = null
    let store: Store
    let service: Service
    let host: WebHost

    const token = (reviewer: string) => host.logins.find((l) => l.reviewer === reviewer)?.token ?? 'none'
    async function call<T>(reviewer: string, method: string, args: unknown = {}): Promise<Reply<T>> {
      const headers = { authorization: `Bearer ${token(reviewer)}`, 'content-type': 'application/json' }
      const res = await rawRequest(host.port, { method: 'POST', path: `/api/${method}`, headers, body: JSON.stringify(args) })
      const body = JSON.parse(res.body) as { ok: boolean; value?: T; error?: Reply<T>['error'] }
      return { status: res.status, value: body.value as T, error: body.error ?? null }
    }
    const cli = (): CallContext => ({ ...service.context(), shell: 'cli' })
    const version = async (reviewer: string) => (await call<TaskDetail>(reviewer, 'task.detail', { taskId: TASK })).value.task.version
    const escalate = async (reviewer: string, label: string) =>
      call(reviewer, 'labels.resolve', { taskId: TASK, label, expectedVersion: await version(reviewer), source: 'escalation' })
    const settings = async () => (await call<TeamSettings>('alice', 'team.getSettings')).value
    const goldAsRandom = (reviewer: string) =>
      call(reviewer, 'imports.run', { source: { kind: 'upload', uploadId: UNKNOWN_UPLOAD }, kind: 'traces', goldAs: 'random' })

    beforeEach(async () => {
      location = await makeDbLocation()
      store = await openStore(location.dbLocation)
      await seedTraces(store, exampleTraces())
      service = await createService({ store, dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
      host = await startWebHost({
        handlers: service.handlers, subscribe: service.subscribe, context: service.context, rendererDir: DEFAULT_RENDERER_DIR,
        reviewers: ['alice', 'bob', 'carol']
      })
      await dispatch(service.handlers, 'engine.updateSettings', { patch: { autoRefit: false } }, cli())
    })
    afterEach(async () => {
      await host?.close()
      await service?.close()
      await location?.cleanup()
    })

    it('lets no login change the team settings while no adjudicator is named (no N toggling to read a blind label)', async () => {
      const toggled = await call('bob', 'team.updateSettings', { patch: { reviewersPerTask: 1 } })
      expect(toggled).toMatchObject({ status: 401, error: { code: 'unauthorized', message: expect.stringContaining('no adjudicator is named') } })
      // Nor may a login name itself, the way into every other right.
      expect(await call('bob', 'team.updateSettings', { patch: { adjudicators: ['bob'] } })).toMatchObject({ status: 401 })
      expect(await settings()).toEqual({ reviewersPerTask: 1, adjudicators: [] })

      // The operator names carol; then she alone changes N, and bob still may not.
      expect((await dispatch(service.handlers, 'team.updateSettings', { patch: { adjudicators: ['carol'] } }, cli())).ok).toBe(true)
      expect(await call('bob', 'team.updateSettings', { patch: { reviewersPerTask: 2 } })).toMatchObject({ status: 401 })
      expect((await call('carol', 'team.updateSettings', { patch: { reviewersPerTask: 2 } })).status).toBe(200)
      expect(await settings()).toEqual({ reviewersPerTask: 2, adjudicators: ['carol'] })
    })

    it('takes gold as random labels only from a named adjudicator or the CLI', async () => {
      expect(await goldAsRandom('bob')).toMatchObject({ status: 401, error: { code: 'unauthorized', message: expect.stringContaining('random') } })
      await dispatch(service.handlers, 'team.updateSettings', { patch: { adjudicators: ['carol'] } }, cli())
      expect(await goldAsRandom('bob')).toMatchObject({ status: 401, error: { code: 'unauthorized' } })
      // Carol passes the rule: what stops her here is only the unknown upload.
      const carols = await goldAsRandom('carol')
      expect(carols.error?.code).not.toBe('unauthorized')
      const fromCli = await dispatch(service.handlers, 'imports.run', { source: { kind: 'upload', uploadId: UNKNOWN_UPLOAD }, kind: 'traces', goldAs: 'random' }, cli())
      expect(fromCli.ok ? null : fromCli.error.code).not.toBe('unauthorized')
    })

    it('lets nobody rule while no adjudicator is named, and no adjudicator on a disagreement she is part of', async () => {
      expect((await escalate('alice', 'Jupiter')).status).toBe(200)
      expect((await escalate('bob', 'Earth')).status).toBe(200)
      const list = (await call<AdjudicationList>('bob', 'adjudicate.list')).value
      expect(list).toMatchObject({ total: 1, canAdjudicate: false })
      // Bob disputes alice's label; with no adjudicator named he may not settle it his way.
      const own = await call('bob', 'adjudicate.resolve', { taskId: TASK, label: 'Earth', expectedVersion: await version('bob') })
      expect(own).toMatchObject({ status: 401, error: { code: 'unauthorized' } })

      // Named, alice may rule on others' disagreements but not this one: she labeled it.
      await dispatch(service.handlers, 'team.updateSettings', { patch: { adjudicators: ['alice', 'carol'] } }, cli())
      expect((await call<AdjudicationList>('alice', 'adjudicate.list')).value.canAdjudicate).toBe(true)
      const hers = await call('alice', 'adjudicate.resolve', { taskId: TASK, label: 'Jupiter', expectedVersion: await version('alice') })
      expect(hers).toMatchObject({ status: 401, error: { code: 'unauthorized', message: expect.stringContaining('alice labeled') } })
      expect((await store.liveLabels(TASK)).filter((l) => l.adjudicated)).toEqual([])
      expect((await call('carol', 'adjudicate.resolve', { taskId: TASK, label: 'Jupiter', expectedVersion: await version('carol') })).status).toBe(200)
      expect((await store.liveLabels(TASK)).filter((l) => l.adjudicated).map((l) => [l.reviewer, l.label])).toEqual([['carol', 'Jupiter']])
    })

    it('gives the engine settings, a re-decide and a rollback only to a named adjudicator over logins', async () => {
      const first = await dispatch(service.handlers, 'fits.run', {}, cli())
      const second = await dispatch(service.handlers, 'fits.run', {}, cli())
      if (!first.ok || !second.ok) throw new Error('the CLI fits')
      const firstId = (first.value as FitSummary).id
      const before = (await call<EngineSettings>('alice', 'engine.getSettings')).value
      const moves = {
        settings: () => ['engine.updateSettings', { patch: { budget: { kind: 'absolute', beta: 0.4 } } }] as const,
        redecide: () => ['fits.redecide', { budget: { kind: 'absolute', beta: 0.4 } }] as const,
        rollback: () => ['fits.rollback', { fitId: firstId }] as const
      }
      const currentFit = async () => (await call<FitSummary[]>('alice', 'fits.list', {})).value.find((f) => f.current)

      // No adjudicator named: no login moves every reviewer's verdicts.
      for (const move of Object.values(moves)) {
        const [method, args] = move()
        expect(await call('bob', method, args), method).toMatchObject({ status: 401, error: { code: 'unauthorized', message: expect.stringContaining('no adjudicator is named') } })
      }
      // The operator names carol: bob still may not, nothing moved…
      await dispatch(service.handlers, 'team.updateSettings', { patch: { adjudicators: ['carol'] } }, cli())
      for (const move of Object.values(moves)) {
        const [method, args] = move()
        expect(await call('bob', method, args), method).toMatchObject({ status: 401, error: { code: 'unauthorized', message: expect.stringContaining('only carol may') } })
      }
      expect((await call<EngineSettings>('alice', 'engine.getSettings')).value).toEqual(before)
      expect((await currentFit())?.id).toBe((second.value as FitSummary).id)

      // …and carol does each.
      expect(await call<EngineSettings>('carol', ...moves.settings())).toMatchObject({ status: 200, value: { budget: { kind: 'absolute', beta: 0.4 } } })
      expect(await call<FitSummary>('carol', ...moves.redecide())).toMatchObject({ status: 200, value: { current: true } })
      const back = await call<FitSummary>('carol', ...moves.rollback())
      expect(back).toMatchObject({ status: 200, value: { parentFitId: firstId, current: true } })
      expect(await currentFit()).toMatchObject({ id: back.value.id })
      // The CLI keeps them whoever is named.
      expect(await dispatch(service.handlers, 'engine.updateSettings', { patch: { budget: { kind: 'absolute', beta: 0.2 } } }, cli())).toMatchObject({ ok: true })
    })

    it('keeps every right with the one local user when there are no logins', async () => {
      const local = service.context()
      const set = await dispatch(service.handlers, 'team.updateSettings', { patch: { reviewersPerTask: 2 } }, local)
      expect(set).toMatchObject({ ok: true, value: { reviewersPerTask: 2, adjudicators: [] } })
      expect(await dispatch(service.handlers, 'adjudicate.list', {}, local)).toMatchObject({ ok: true, value: { canAdjudicate: true } })
      // The engine settings too, even once the team names an adjudicator: the local user is not a login.
      await dispatch(service.handlers, 'team.updateSettings', { patch: { adjudicators: ['carol'] } }, cli())
      expect(await dispatch(service.handlers, 'engine.updateSettings', { patch: { spotRate: 0.1 } }, local)).toMatchObject({ ok: true, value: { spotRate: 0.1 } })
    })
  })
}
