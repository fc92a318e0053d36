/**
 * Closing a console leaves its SQLite file whole: a fit's result comes before its thread's close
 * step (the checkpoint), so `close` waits for the job threads of its database, and a copy made
 * right after (a backup, a template) holds everything.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { dispatch } from '../../src/main/host/dispatch'
import { createService } from '../../src/main/service'
import { cleanCouncil } from '../../src/main/sim'
import { openStore } from '../../src/main/store'
import { seedTraces } from '../helpers/seed'

const dir = mkdtempSync(join(tmpdir(), 'arbiter-service-close-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('returns from close only once every job thread of its database has exited and the WAL is checkpointed', async () => {
  const dbLocation = join(dir, 'arbiter.db')
  const store = await openStore(dbLocation)
  await seedTraces(store, [...cleanCouncil({ tasks: 6, seed: 11 })])
  const service = await createService({ store, dbLocation, nativeBinding: null, shell: 'web' })
  expect((await dispatch(service.handlers, 'fits.run', {}, service.context())).ok).toBe(true)
  await service.close()
  // The last connection's close checkpoints and removes the WAL: nothing of the database is left outside the file.
  expect(existsSync(`${dbLocation}-wal`)).toBe(false)
  const copy = await openStore(dbLocation)
  try {
    expect((await copy.counts()).tasks).toBe(6)
  } finally {
    await copy.close()
  }
}, 60_000)
