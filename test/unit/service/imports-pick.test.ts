/**
 * `imports.pick`: the desktop app's main process opens the native file dialog (injected here as a
 * fake) and registers the chosen file as the caller's upload, so `imports.run` takes its upload id
 * as it takes an uploaded file's. The file is the user's own: read in place, never deleted.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CallContext, PickedFile } from '../../../src/shared/api'
import { dispatch } from '../../../src/main/host/dispatch'
import { createService, type Service } from '../../../src/main/service'
import { openStore } from '../../../src/main/store'
import { EXAMPLE_TRACES } from '../../helpers/seed'

let dir: string
let service: Service
/** What the fake dialog answers next: a path, or null (the user cancelled). */
let answer: string | null
let opened: number
let closed: boolean

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-pick-'))
  const dbLocation = join(dir, 'arbiter.db')
  answer = null
  opened = 0
  closed = false
  const pickFile = async () => {
    opened++
    return answer
  }
  service = await createService({ store: await openStore(dbLocation), dbLocation, nativeBinding: null, shell: 'electron', pickFile })
  await dispatch(service.handlers, 'engine.updateSettings', { patch: { autoRefit: false } }, service.context())
})
afterEach(async () => {
  if (!closed) await service.close()
  rmSync(dir, { recursive: true, force: true })
})

const call = (method: string, args: unknown, ctx: CallContext = service.context()) => dispatch(service.handlers, method, args, ctx)

describe('imports.pick (the desktop app’s file dialog)', () => {
  it('answers null when the user cancels the dialog', async () => {
    expect(await call('imports.pick', {})).toEqual({ ok: true, value: null })
    expect(opened).toBe(1)
  })

  it('registers the chosen file as the caller’s upload: imports.run reads it in place, and the file stays', async () => {
    const mine = join(dir, 'council.trace.jsonl')
    writeFileSync(mine, readFileSync(EXAMPLE_TRACES))
    answer = mine
    const picked = await call('imports.pick', {})
    expect(picked).toEqual({ ok: true, value: { uploadId: expect.any(String), fileName: 'council.trace.jsonl', bytes: readFileSync(mine).length } })
    const { uploadId } = (picked as { value: PickedFile }).value
    // The upload id is the caller's: another session (another login, on the web host) finds no upload.
    const other = await call('imports.run', { source: { kind: 'upload', uploadId } }, { ...service.context(), sessionId: 'someone-else' })
    expect(other).toMatchObject({ ok: false, error: { code: 'not_found' } })
    const run = await call('imports.run', { source: { kind: 'upload', uploadId } })
    expect(run).toMatchObject({ ok: true, value: { status: 'imported', file: 'council.trace.jsonl', tasks: 3 } })
    // The import forgets the pick (its id is spent) but leaves the user's file alone, and so does closing.
    expect(await call('imports.run', { source: { kind: 'upload', uploadId } })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(existsSync(mine)).toBe(true)
    const again = (await call('imports.pick', {})) as { value: PickedFile }
    expect(again.value.fileName).toBe('council.trace.jsonl')
    closed = true
    await service.close()
    expect(readFileSync(mine)).toEqual(readFileSync(EXAMPLE_TRACES))
  })

  it('is refused in the browser console and the CLI without opening a dialog', async () => {
    for (const shell of ['web', 'cli'] as const) {
      const refused = await call('imports.pick', {}, { ...service.context(), shell })
      expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining("desktop app's file dialog") } })
    }
    expect(opened).toBe(0)
    expect(await call('imports.pick', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'bad_input' } })
  })
})
