/**
 * The operating loop through the service's contract calls, on either backend:
 * import → fit → decide → resolve → refit → export, with every number checked against
 * the engine's own functions run on the same traces and labels; undo supersedes; a stale resolve
 * is refused; the export is exactly the queue's filter. Imports and fits run in worker threads
 * that open the store by its database location, a file path or a postgres:// URL alike.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiEvent } from '../../../src/shared/events'
import type { Trace } from '../../../src/shared/trace'
import {
  buildActOrDefer, buildTallies, fitCouncil, looInfluence, SeatIndex, socialAt, tieBreak, type TaskTallies
} from '../../../src/main/engine'
import { dispatch } from '../../../src/main/host/dispatch'
import { createService, type Service } from '../../../src/main/service'
import { cleanCouncil, toJsonl } from '../../../src/main/sim'
import { openStore } from '../../../src/main/store'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'

export function defineLoopSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`the operating loop on ${name}`, () => {
    let location: DbLocation | null = null
    let dir: string
    let service: Service
    let traces: Trace[]
    const events: ApiEvent[] = []

    async function call<T = unknown>(method: string, args: unknown = {}, ctx = service.context()): Promise<T> {
      const env = await dispatch(service.handlers, method, args, ctx)
      if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
      return env.value as T
    }

    /** Host paths are the CLI's (a console window names none: handlers/local-paths.ts). */
    const cli = () => ({ ...service.context(), shell: 'cli' as const })

    /** The engine's own decisions for the same traces and labels (tasks in id order, as the store pages them). */
    function reference(labels: Map<string, { label: string; source: string }>) {
      const seats = new SeatIndex()
      const all = [...traces].sort((a, b) => (a.task < b.task ? -1 : 1)).map((t) => buildTallies(t, seats, labels.get(t.task)?.label ?? null))
      const C = all.filter((t) => labels.get(t.task)?.source === 'random')
      const extra = all.filter((t) => labels.get(t.task)?.source === 'escalation')
      const fits = fitCouncil({ method: 'per-agent', hyper: null, calibration: C, extraLabeled: extra, seed: 0, fitOptions: { pool: all, labels: C[0].candidates } })
      const aod = buildActOrDefer(fits, { state: 'posterior', options: { delta: 0.03, epsAct: 0.02 }, bound: 'hoeffding', spotRate: 0.05 })
      const scored = all.filter((t) => !labels.has(t.task))
      const decided = aod.decide(scored, { kind: 'auto' })
      return { fits, scored, decided, seats, byId: new Map(all.map((t) => [t.task, t])) }
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'arbiter-loop-'))
      traces = [...cleanCouncil({ tasks: 1200, seed: 11 })]
      writeFileSync(join(dir, 'council.jsonl'), traces.map((t) => `${toJsonl(t)}\n`).join(''))
      // A calibration batch: every other task, labeled blind with its gold (source random).
      const labels = traces.filter((_, i) => i % 2 === 0).map((t) => JSON.stringify({ task: t.task, label: t.gold, source: 'random', reviewer: 'ana', at: '2026-11-30T12:00:00Z' }))
      writeFileSync(join(dir, 'calibration.labels.jsonl'), `${labels.join('\n')}\n`)
      location = await makeDbLocation()
      const dbLocation = location.dbLocation
      const store = await openStore(dbLocation)
      service = await createService({ store, dbLocation, nativeBinding: null, shell: 'electron' })
      service.subscribe((e) => events.push(e))
      // At this size (600 calibration labels) the social state's neighbourhoods are too coarse for
      // λ = auto to find a feasible budget; the rounded posterior state acts (docs/engine.md §8.2). The
      // figures below are λ = auto's under Hoeffding's bound, named here (neither is the default).
      await call('engine.updateSettings', { patch: { autoRefit: false, method: 'per-agent', state: 'posterior', budget: { kind: 'auto' }, bound: 'hoeffding' } })
    })

    afterAll(async () => {
      await service?.close()
      await location?.cleanup()
      rmSync(dir, { recursive: true, force: true })
    })

    describe('import → fit → decide → resolve → refit → export', () => {
      let fitId = ''
      const labels = new Map<string, { label: string; source: string }>()

      it('imports traces in a worker with progress, then the calibration labels; a re-import is a no-op', async () => {
        const imp = await call<{ status: string; tasks: number; moves: number; jobId: string }>('imports.run', { source: { kind: 'path', path: join(dir, 'council.jsonl') } }, cli())
        expect(imp).toMatchObject({ status: 'imported', tasks: 1200, moves: traces.reduce((n, t) => n + t.moves.length, 0) })
        expect(await call('app.info')).toMatchObject({ backend: location?.backend })
        const jobs = events.filter((e) => e.type === 'job' && e.jobId === imp.jobId)
        expect(jobs.map((e) => (e.type === 'job' ? e.phase : '')).at(-1)).toBe('done')
        expect(jobs.some((e) => e.type === 'job' && e.phase === 'running')).toBe(true)
        const again = await call<{ status: string }>('imports.run', { source: { kind: 'path', path: join(dir, 'council.jsonl') } }, cli())
        expect(again.status).toBe('already-imported')
        const lab = await call<{ status: string; labels: number; kind: string }>('imports.run', { source: { kind: 'path', path: join(dir, 'calibration.labels.jsonl') } }, cli())
        expect(lab).toMatchObject({ status: 'imported', kind: 'labels', labels: 600 })
        for (const t of traces.filter((_, i) => i % 2 === 0)) labels.set(t.task, { label: t.gold as string, source: 'random' })
        expect(await call('app.counts')).toMatchObject({ tasks: 1200, labeledTasks: 600, deferred: 0, acted: 0 })
      })

      it('fits and decides every unlabeled task exactly as the engine does', async () => {
        const fit = await call<{ id: string; hyperparameters: Record<string, number>; decisionCount: number; current: boolean }>('fits.run')
        fitId = fit.id
        expect(events).toContainEqual({ type: 'fit-landed', fitId })
        const ref = reference(labels)
        expect(fit.hyperparameters).toEqual(ref.fits.deployed.hyper)
        expect(fit.decisionCount).toBe(600)
        const exported = await call<{ content: string }>('export.run', { what: 'decisions', filter: { decision: null } })
        const rows = new Map(exported.content.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).map((r) => [r.task as string, r]))
        expect(rows.size).toBe(1200)
        let acted = 0
        ref.decided.tasks.forEach((v, i) => {
          const row = rows.get(v.task) as Record<string, unknown>
          const t = ref.scored[i]
          const p = ref.fits.deployed.posteriorAt(t)
          expect(row).toMatchObject({ decision: v.decision, stopRound: v.stopRound, answer: v.answer, spotCheck: v.spotCheck, fit: fitId, method: 'per-agent' })
          expect(row.gap).toBeCloseTo(v.gap as number, 12)
          expect((row.bound as number[]).map((b) => Math.round(b * 1e9))).toEqual(v.bound.map((b) => Math.round((b as number) * 1e9)))
          t.candidates.forEach((c, g) => expect((row.posterior as Record<string, number>)[c]).toBeCloseTo(p[g], 12))
          if (v.decision === 'act') acted++
        })
        expect(acted).toBeGreaterThan(100) // a clean council: the certificate acts on part of it
        const counts = await call<{ acted: number; deferred: number; spotCheck: number }>('app.counts')
        expect(counts.acted).toBe(acted)
        expect(counts.deferred).toBe(600 - acted)
        expect(counts.spotCheck).toBe(ref.decided.tasks.filter((v) => v.spotCheck).length)
        for (const [id, r] of rows) if (labels.has(id)) expect(r).toMatchObject({ decision: 'human', label: labels.get(id)?.label, labelSource: 'random', reviewer: 'ana' })
      })

      it('returns a task’s detail with the engine’s posterior, weights and leave-one-seat-out influence', async () => {
        const page = await call<{ rows: { taskId: string; gap: number; disagreement: number }[]; total: number }>('queue.page', { limit: 5 })
        expect(page.total).toBeGreaterThan(0)
        const gaps = page.rows.map((r) => r.gap)
        expect([...gaps].sort((a, b) => a - b)).toEqual(gaps)
        const ref = reference(labels)
        const t = ref.byId.get(page.rows[0].taskId) as TaskTallies
        expect(page.rows[0].disagreement).toBeCloseTo(1 - Math.max(...socialAt(t)), 12)
        const d = await call<{ verdict: { posterior: Record<string, number>; answer: string; seats: { seat: string; weight: number; evidence: number | null; influence: { shift: number } }[]; decision: { gap: number; threshold: number } }; moves: unknown[] }>('task.detail', { taskId: t.task })
        const p = ref.fits.deployed.posteriorAt(t)
        t.candidates.forEach((c, g) => expect(d.verdict.posterior[c]).toBeCloseTo(p[g], 12))
        expect(d.verdict.answer).toBe(t.candidates[tieBreak(p, t.K, t.task, 0)])
        const w = ref.fits.deployed.weights(t)
        const loo = new Map(looInfluence(ref.fits.deployed, t).map((x) => [x.seat, x.shift]))
        const evidence = new Map(ref.fits.deployed.seatReport(ref.seats).map((r) => [r.seat, r.evidence]))
        for (const s of d.verdict.seats) {
          expect(s.weight).toBeCloseTo(w[s.seat], 12)
          expect(s.evidence).toBe(evidence.get(s.seat))
          expect(s.influence.shift).toBeCloseTo(loo.get(s.seat) as number, 12)
        }
        expect(d.verdict.decision.gap).toBeGreaterThan(0)
        expect(d.moves).toHaveLength(traces.find((x) => x.task === t.task)?.moves.length as number)
        const blind = await call<{ verdict: unknown; blind: boolean; gold: unknown }>('task.detail', { taskId: t.task, blind: true })
        expect(blind).toMatchObject({ verdict: null, blind: true, gold: null })
      })

      it('resolves with a version check, undoes by superseding, and refits to decide without the labeled task', async () => {
        const page = await call<{ rows: { taskId: string; version: number }[] }>('queue.page', { limit: 2 })
        const [a, b] = page.rows
        const gold = (id: string) => traces.find((t) => t.task === id)?.gold as string
        const first = await call<{ labelId: string; version: number }>('labels.resolve', { taskId: a.taskId, label: gold(a.taskId), expectedVersion: a.version, note: 'clear' })
        const stale = await dispatch(service.handlers, 'labels.resolve', { taskId: a.taskId, label: gold(a.taskId), expectedVersion: a.version }, service.context())
        expect(stale).toMatchObject({ ok: false, error: { code: 'conflict', details: { currentVersion: first.version } } })
        const undo = await call<{ version: number }>('labels.undo', { labelId: first.labelId, expectedVersion: first.version })
        const detail = await call<{ labels: unknown[]; labelLog: { label: string | null; supersedes: string | null }[] }>('task.detail', { taskId: a.taskId })
        expect(detail.labels).toEqual([])
        expect(detail.labelLog.map((l) => [l.label, l.supersedes])).toEqual([[gold(a.taskId), null], [null, first.labelId]])
        await call('labels.resolve', { taskId: a.taskId, label: gold(a.taskId), expectedVersion: undo.version })
        await call('labels.resolve', { taskId: b.taskId, label: gold(b.taskId), expectedVersion: b.version })
        labels.set(a.taskId, { label: gold(a.taskId), source: 'escalation' })
        labels.set(b.taskId, { label: gold(b.taskId), source: 'escalation' })
        const recent = await call<{ taskId: string; live: boolean }[]>('labels.recent', { limit: 4 })
        expect(recent.map((r) => [r.taskId, r.live])).toEqual([[b.taskId, true], [a.taskId, true], [a.taskId, false], [a.taskId, false]])

        const refit = await call<{ id: string; decisionCount: number; hyperparameters: Record<string, number> }>('fits.run')
        expect(refit.id).not.toBe(fitId)
        expect(refit.decisionCount).toBe(598)
        const ref = reference(labels)
        expect(refit.hyperparameters).toEqual(ref.fits.deployed.hyper)
        const exported = await call<{ content: string }>('export.run', { what: 'decisions', filter: { decision: 'act' } })
        const acted = exported.content.trim().split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { task: string }).task)
        expect(acted).toEqual(ref.decided.tasks.filter((v) => v.decision === 'act').map((v) => v.task))
        expect((await call<{ id: string; current: boolean }[]>('fits.list')).map((f) => f.current)).toEqual([true, false])
      })

      it('exports exactly the queue’s filter, in JSONL and CSV, and labels of the filtered tasks', async () => {
        const filter = { decision: 'defer', search: null, group: null, seat: 'A2', candidate: 'true', labelSource: null, spotCheck: null }
        const queue = await call<{ rows: { taskId: string }[]; total: number }>('queue.page', { filter, limit: 500 })
        const jsonl = await call<{ content: string; rows: number }>('export.run', { what: 'decisions', filter, format: 'jsonl' })
        const ids = jsonl.content.trim().split('\n').map((l) => (JSON.parse(l) as { task: string; decision: string; answer: string }))
        expect(ids.every((r) => r.decision === 'defer' && r.answer === 'true')).toBe(true)
        expect(ids.map((r) => r.task).sort()).toEqual(queue.rows.map((r) => r.taskId).sort())
        expect(jsonl.rows).toBe(queue.total)
        const out = join(dir, 'deferred.csv')
        const csv = await call<{ rows: number; path: string; content: null }>('export.run', { what: 'decisions', filter, format: 'csv', path: out }, cli())
        expect(csv).toMatchObject({ rows: queue.total, path: out, content: null })
        const lines = readFileSync(out, 'utf8').trim().split('\n')
        expect(lines[0]).toBe('task,decision,spotCheck,answer,method,posterior,stopRound,gap,bound,label,labelSource,reviewer,decidedAt,fit')
        expect(lines).toHaveLength(queue.total + 1)
        const lab = await call<{ content: string; rows: number }>('export.run', { what: 'labels', filter: { decision: 'human', labelSource: 'escalation' } })
        const rows = lab.content.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
        expect(rows).toHaveLength(2)
        expect(rows[0]).toMatchObject({ source: 'escalation', reviewer: 'reviewer' })
        expect(Object.keys(rows[0]).sort()).toEqual(['at', 'label', 'reviewer', 'source', 'task'])
      })

      it('rolls back to the first fit, and refits in the background after a label when allowed', async () => {
        const back = await call<{ id: string; current: boolean }>('fits.rollback', { fitId })
        expect(events).toContainEqual({ type: 'fit-landed', fitId: back.id })
        expect((await call<{ id: string; parentFitId: string }>('fits.get', { fitId: back.id })).parentFitId).toBe(fitId)
        await call('engine.updateSettings', { patch: { autoRefit: true, refitDelayMs: 50 } })
        const page = await call<{ rows: { taskId: string; version: number }[] }>('queue.page', { limit: 1 })
        const landed = events.length
        const r = await call<{ refitScheduled: boolean }>('labels.resolve', { taskId: page.rows[0].taskId, label: traces.find((t) => t.task === page.rows[0].taskId)?.gold, expectedVersion: page.rows[0].version })
        expect(r.refitScheduled).toBe(true)
        await expect.poll(() => events.slice(landed).some((e) => e.type === 'fit-landed'), { timeout: 60_000 }).toBe(true)
        const status = await call<{ running: boolean; stale: boolean; lastError: string | null }>('fits.status')
        expect(status).toMatchObject({ running: false, lastError: null })
        // The service caches the settings a resolve reads: a settings change is seen at once.
        await call('engine.updateSettings', { patch: { autoRefit: false } })
        const next = await call<{ rows: { taskId: string; version: number }[] }>('queue.page', { limit: 1 })
        const off = await call<{ refitScheduled: boolean }>('labels.resolve', { taskId: next.rows[0].taskId, label: traces.find((t) => t.task === next.rows[0].taskId)?.gold, expectedVersion: next.rows[0].version })
        expect(off.refitScheduled).toBe(false)
      })
    })
  })
}
