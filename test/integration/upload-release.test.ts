/**
 * An import lets go of every upload it marked in use, however it ends: a run refused before its
 * job starts (an unknown or still-arriving gold upload) leaves its source upload free to expire
 * when idle, or to import again with the right gold; a run that read its files drops them.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CallContext, ImportSummary, UploadResult } from '../../src/shared/api'
import { dispatch } from '../../src/main/host/dispatch'
import { createService, type Service } from '../../src/main/service'
import { openStore } from '../../src/main/store'
import { EXAMPLE_TRACES } from '../helpers/seed'

const IDLE_MS = 1000
const UNKNOWN_UPLOAD = '00000000-0000-4000-8000-000000000000'

describe('an import releases the uploads it marked in use', () => {
  let dir: string
  let uploadRoot: string
  let service: Service
  let now = 0
  let ctx: CallContext

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbiter-upload-release-'))
    uploadRoot = join(dir, 'uploads')
    mkdirSync(uploadRoot)
    now = 1_000_000
    const dbLocation = join(dir, 'arbiter.db')
    const store = await openStore(dbLocation)
    service = await createService({
      store, dbLocation, nativeBinding: null, shell: 'web',
      // One upload a login at a time: an upload pinned in use would lock the login out of uploading.
      uploads: { root: uploadRoot, now: () => now, limits: { idleMs: IDLE_MS, perLoginFiles: 1 } }
    })
    ctx = { ...service.context(), sessionId: 'alice-session/tab-1' }
  })
  afterEach(async () => {
    await service?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const upload = () =>
    dispatch(service.handlers, 'imports.upload', { uploadId: null, fileName: 'council.trace.jsonl', offset: 0, chunk: readFileSync(EXAMPLE_TRACES) }, ctx)
  const run = (uploadId: string, gold: string | null) =>
    dispatch(service.handlers, 'imports.run', {
      source: { kind: 'upload', uploadId }, kind: 'traces', gold: gold === null ? null : { kind: 'upload', uploadId: gold }
    }, ctx)
  const filesHeld = () => readdirSync(uploadRoot).flatMap((d) => readdirSync(join(uploadRoot, d)))

  it('frees the source upload when the gold upload is unknown: it expires when idle, and the login may upload again', async () => {
    const first = await upload()
    if (!first.ok) throw new Error(first.error.message)
    const { uploadId } = first.value as UploadResult

    const refused = await run(uploadId, UNKNOWN_UPLOAD)
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringContaining(UNKNOWN_UPLOAD) } })
    expect(filesHeld()).toEqual([uploadId]) // kept for a corrected run…

    // …until it is left idle: then it expires like any upload nobody imports, and the cap frees up.
    now += IDLE_MS + 1
    const second = await upload()
    if (!second.ok) throw new Error(`the login may upload again: ${second.error.message}`)
    expect(filesHeld()).toEqual([(second.value as UploadResult).uploadId])
    expect(await run(uploadId, null)).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })

  it('lets a corrected run import the upload a refused run named, then drops it', async () => {
    const first = await upload()
    if (!first.ok) throw new Error(first.error.message)
    const { uploadId } = first.value as UploadResult
    expect((await run(uploadId, UNKNOWN_UPLOAD)).ok).toBe(false)

    const imported = await run(uploadId, null)
    if (!imported.ok) throw new Error(imported.error.message)
    expect(imported.value as ImportSummary).toMatchObject({ status: 'imported', tasks: 3 })
    expect(filesHeld()).toEqual([])
  })
})
