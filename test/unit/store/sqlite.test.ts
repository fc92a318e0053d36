import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../../../src/main/store'
import { defineStoreSuite } from './store-suite'

defineStoreSuite('sqlite', async (opts = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-store-'))
  const store = await openStore(join(dir, 'arbiter.db'), opts)
  return {
    store,
    cleanup: async () => {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
})
