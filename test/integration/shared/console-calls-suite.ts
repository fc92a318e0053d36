/**
 * The contract calls the console builds on, over the dispatcher (validation and envelope
 * included): browser uploads, reservations across two windows, settings validation, re-decide,
 * the audit tail, and an import refused by the database that writes nothing — on either backend
 * (console-calls.test.ts runs it on both).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallContext } from '../../../src/shared/api'
import { dispatch } from '../../../src/main/host/dispatch'
import { createService, type Service } from '../../../src/main/service'
import { openStore } from '../../../src/main/store'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'
import { EXAMPLE_TRACES } from '../../helpers/seed'

const EXAMPLES = join(__dirname, '../../../resources/examples')

export function defineConsoleCallsSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`console calls on ${name}`, () => {
    let dir: string
    let location: DbLocation | null = null
    let service: Service
    let ana: CallContext
    let bo: CallContext

    const call = async <T = unknown>(method: string, args: unknown = {}, ctx: CallContext = ana): Promise<T> => {
      const env = await dispatch(service.handlers, method, args, ctx)
      if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
      return env.value as T
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'arbiter-calls-'))
      location = await makeDbLocation()
      const dbLocation = location.dbLocation
      service = await createService({ store: await openStore(dbLocation), dbLocation, nativeBinding: null, shell: 'electron' })
      ana = { ...service.context(), reviewer: 'ana', sessionId: 'window-1' }
      bo = { ...service.context(), reviewer: 'bo', sessionId: 'window-2' }
      await call('engine.updateSettings', { patch: { autoRefit: false } })
    })
    afterAll(async () => {
      await service?.close()
      await location?.cleanup()
      rmSync(dir, { recursive: true, force: true })
    })

    it('imports a file uploaded in slices (the browser cannot hand over a path)', async () => {
      const text = readFileSync(EXAMPLE_TRACES, 'utf8')
      const bytes = Buffer.from(text)
      const half = Math.floor(bytes.length / 2)
      const first = await call<{ uploadId: string; bytes: number }>('imports.upload', { fileName: 'council.trace.jsonl', offset: 0, chunk: bytes.subarray(0, half) })
      const second = await call<{ uploadId: string; bytes: number }>('imports.upload', { uploadId: first.uploadId, fileName: 'council.trace.jsonl', offset: first.bytes, chunk: bytes.subarray(half) })
      expect(second.bytes).toBe(Buffer.byteLength(text))
      const r = await call<{ status: string; file: string; tasks: number }>('imports.run', { source: { kind: 'upload', uploadId: first.uploadId } })
      expect(r).toMatchObject({ status: 'imported', file: 'council.trace.jsonl', tasks: 3 })
      const gone = await dispatch(service.handlers, 'imports.run', { source: { kind: 'upload', uploadId: first.uploadId } }, ana)
      expect(gone).toMatchObject({ ok: false, error: { code: 'not_found' } })
      // A path comes from the process's own code (the CLI), never from a console window.
      const cli: CallContext = { ...ana, shell: 'cli' }
      const labels = await call<{ status: string; labels: number }>('imports.run', { source: { kind: 'path', path: join(EXAMPLES, 'council.labels.jsonl') } }, cli)
      expect(labels).toMatchObject({ status: 'imported', labels: 2 })
      expect((await call<{ fileName: string }[]>('imports.list')).map((i) => i.fileName)).toEqual([join(EXAMPLES, 'council.labels.jsonl'), 'council.trace.jsonl'])
    })

    it('refuses a file that contradicts the database, lists why, and writes nothing', async () => {
      const before = await call('app.counts')
      const audit = (await call<unknown[]>('audit.tail', { limit: 1000 })).length
      const text = readFileSync(EXAMPLE_TRACES, 'utf8').replace('Which planet has the shortest day?', 'Which planet spins fastest?')
      const up = await call<{ uploadId: string }>('imports.upload', { fileName: 'edited.jsonl', offset: 0, chunk: Buffer.from(text) })
      const r = await call<{ status: string; errors: { line: number; rule: string; task: string }[] }>('imports.run', { source: { kind: 'upload', uploadId: up.uploadId } })
      expect(r.status).toBe('rejected')
      expect(r.errors).toEqual([expect.objectContaining({ line: 3, rule: 'changed-task', task: 'trivia-0001' })])
      expect(await call('app.counts')).toEqual(before)
      expect(await call<unknown[]>('audit.tail', { limit: 1000 })).toHaveLength(audit)
      const missing = await dispatch(service.handlers, 'imports.run', { source: { kind: 'path', path: join(dir, 'nope.jsonl') } }, { ...ana, shell: 'cli' })
      expect(missing).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    })

    it('lets a reviewer change their own label (the old one superseded), and keeps other reviewers’ labels', async () => {
      const taskId = 'trivia-0001'
      const v0 = (await call<{ task: { version: number } }>('task.detail', { taskId })).task.version
      const first = await call<{ version: number; labelId: string }>('labels.resolve', { taskId, label: 'Mercury', expectedVersion: v0 })
      const changed = await call<{ version: number; labelId: string }>('labels.resolve', { taskId, label: 'Jupiter', expectedVersion: first.version })
      const other = { ...ana, reviewer: 'cy', sessionId: 'window-3' }
      await call('labels.resolve', { taskId, label: 'Jupiter', expectedVersion: changed.version }, other)
      const detail = await call<{ labels: { id: string; label: string; reviewer: string; supersedes: string | null }[] }>('task.detail', { taskId })
      expect(detail.labels.filter((l) => l.reviewer === 'ana').map((l) => l.label)).toEqual(['Jupiter'])
      expect(detail.labels.filter((l) => l.reviewer === 'cy').map((l) => l.label)).toEqual(['Jupiter'])
      expect(detail.labels.find((l) => l.reviewer === 'ana')?.supersedes).toBe(first.labelId)
    })

    it('never reads or writes a host file path for a console, browser or app window (uploads and downloads only)', async () => {
      const web: CallContext = { ...ana, shell: 'web' }
      const read = await dispatch(service.handlers, 'imports.run', { source: { kind: 'path', path: EXAMPLE_TRACES } }, web)
      expect(read).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('no file path in the browser console') } })
      const out = join(dir, 'should-not-exist.jsonl')
      const write = await dispatch(service.handlers, 'export.run', { what: 'labels', path: out }, web)
      expect(write).toMatchObject({ ok: false, error: { code: 'bad_input' } })
      expect(existsSync(out)).toBe(false)
      // The desktop window (ana's context is the app's) is a renderer showing hostile text: no paths either.
      const appRead = await dispatch(service.handlers, 'imports.run', { source: { kind: 'path', path: EXAMPLE_TRACES }, gold: null }, ana)
      expect(appRead).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining("no file path from the app's window") } })
      expect(await dispatch(service.handlers, 'export.run', { what: 'labels', path: out }, ana)).toMatchObject({ ok: false, error: { code: 'bad_input' } })
      expect(existsSync(out)).toBe(false)
      // Without a path the browser gets the content to download.
      expect(await dispatch(service.handlers, 'export.run', { what: 'labels' }, web)).toMatchObject({ ok: true, value: { path: null } })
    })

    it('shows a second window who holds a task, and refuses its stale resolve', async () => {
      const t = await call<{ task: { version: number } }>('task.detail', { taskId: 'medclaim-0002' })
      const mine = await call<{ mine: { reviewer: string } | null }>('task.reserve', { taskId: 'medclaim-0002' }, ana)
      expect(mine.mine?.reviewer).toBe('ana')
      const theirs = await call<{ mine: null; heldBy: { reviewer: string } }>('task.reserve', { taskId: 'medclaim-0002' }, bo)
      expect(theirs).toMatchObject({ mine: null, heldBy: { reviewer: 'ana' } })
      expect(await call('task.detail', { taskId: 'medclaim-0002' }, bo)).toMatchObject({ reservedByOther: true, reservation: { reviewer: 'ana' } })
      expect(await call('task.detail', { taskId: 'medclaim-0002' }, ana)).toMatchObject({ reservedByOther: false })
      await call('labels.resolve', { taskId: 'medclaim-0002', label: 'false', expectedVersion: t.task.version }, ana)
      const stale = await dispatch(service.handlers, 'labels.resolve', { taskId: 'medclaim-0002', label: 'true', expectedVersion: t.task.version }, bo)
      expect(stale).toMatchObject({ ok: false, error: { code: 'conflict' } })
      expect(await call('task.detail', { taskId: 'medclaim-0002' }, bo)).toMatchObject({ reservation: null, state: 'human', gold: 'false' })
      expect(await call('task.release', { taskId: 'medclaim-0002' }, ana)).toEqual({ released: false })
    })

    it('validates engine settings, fits, and re-decides under another budget', async () => {
      const bad = await dispatch(service.handlers, 'engine.updateSettings', { patch: { spotRate: 2 } }, ana)
      expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input' } })
      expect(await call('engine.updateSettings', { patch: { labelPolicy: 'random', budget: { kind: 'absolute', beta: 0.3 } } })).toMatchObject({ labelPolicy: 'random', budget: { kind: 'absolute', beta: 0.3 } })
      const noFit = await dispatch(service.handlers, 'fits.redecide', { budget: { kind: 'auto' } }, ana)
      expect(noFit).toMatchObject({ ok: false, error: { code: 'not_found' } })
      const fit = await call<{ id: string }>('fits.run')
      const detail = await call<{ budget: unknown; certificate: Record<string, unknown>; seats: unknown[] }>('fits.get', { fitId: fit.id })
      expect(detail.budget).toEqual({ kind: 'absolute', beta: 0.3 })
      expect(detail.certificate).not.toHaveProperty('labels')
      expect((detail.certificate.settings as { labelPolicy: string }).labelPolicy).toBe('random')
      const redecided = await call<{ id: string; parentFitId: string; current: boolean }>('fits.redecide', { budget: { kind: 'relative', lambda: 1 } })
      expect(redecided).toMatchObject({ parentFitId: fit.id, current: true })
      expect(((await call<{ budget: unknown }>('fits.get', { fitId: redecided.id })).budget)).toEqual({ kind: 'relative', lambda: 1 })
      const tail = await call<{ action: string }[]>('audit.tail', { limit: 3 })
      expect(tail.map((a) => a.action)).toEqual(['decisions.save', 'fit.save', 'decisions.save'].slice(-3))
    })

    it('stores the bound each fit ran with: the setting\'s, the current fit\'s on a re-decide, or the one fits.redecide names', async () => {
      expect(await call('engine.getSettings')).toMatchObject({ bound: 'binomial' })
      // A new database: the defaults are its own, so there is no old-database notice.
      expect(await call('engine.defaultsNotice')).toBeNull()
      expect(await call('engine.dismissDefaultsNotice')).toEqual({ dismissed: false })
      const bad = await dispatch(service.handlers, 'engine.updateSettings', { patch: { bound: 'bernstein' } }, ana)
      expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input' } })
      await call('engine.updateSettings', { patch: { bound: 'hoeffding' } })
      const fit = await call<{ id: string; bound: string }>('fits.run')
      expect(fit.bound).toBe('hoeffding')
      expect((await call<{ certificate: { bound: string; settings: { bound: string } } }>('fits.get', { fitId: fit.id })).certificate).toMatchObject({ bound: 'hoeffding', settings: { bound: 'hoeffding' } })
      const kept = await call<{ bound: string; parentFitId: string }>('fits.redecide', { budget: { kind: 'absolute', beta: 0.3 } })
      expect(kept).toMatchObject({ bound: 'hoeffding', parentFitId: fit.id })
      const other = await call<{ id: string; bound: string }>('fits.redecide', { budget: { kind: 'absolute', beta: 0.3 }, bound: 'binomial' })
      expect(other.bound).toBe('binomial')
      expect((await call<{ id: string; bound: string }[]>('fits.list', { limit: 1 }))[0]).toMatchObject({ id: other.id, bound: 'binomial' })
      const refused = await dispatch(service.handlers, 'fits.redecide', { budget: { kind: 'auto' }, bound: 'bernstein' }, ana)
      expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    })
  })
}
