import { mkdtempSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../../src/main/store'
import { defineStoreSuite } from './store-suite'

defineStoreSuite('sqlite', async (opts = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-store-'))
  const path = join(dir, 'arbiter.db')
  const store = await openStore(path, opts)
  const others: Store[] = []
  return {
    store,
    cleanup: async () => {
      for (const s of [store, ...others]) await s.close()
      rmSync(dir, { recursive: true, force: true })
    },
    another: async () => {
      const s = await openStore(path, opts)
      others.push(s)
      return s
    },
    // The holder keeps its lock on the unlinked file; the next taker creates a new one.
    loseImportLock: async (importId) => unlinkSync(`${path}.import-${importId}.lock`)
  }
})
