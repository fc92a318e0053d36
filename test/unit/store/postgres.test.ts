/**
 * The backend-neutral store suite on PostgreSQL: each fresh store is a fresh database of a
 * throwaway cluster (test/helpers/postgres.ts), opened through `openStore` like a user's URL.
 */
import pg from 'pg'
import { openStore, type Store } from '../../../src/main/store'
import { POSTGRES, usePostgres } from '../../helpers/postgres'
import { describeWith } from '../../helpers/prerequisites'
import { defineStoreSuite } from './store-suite'

const cluster = usePostgres()

/** Ends the session holding an import's advisory lock (the key postgres/import-lock.ts takes), as a server dropping a vanished client does. */
async function terminateLockHolder(url: string, importId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const r = await client.query(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND objsubid = 1
         AND ((classid::bigint << 32) | objid::bigint) = hashtextextended('arbiter.import:' || $1, 0)`,
      [importId]
    )
    if (r.rows.length !== 1) throw new Error(`expected one session holding the lock of import ${importId}, found ${r.rows.length}`)
  } finally {
    await client.end()
  }
}

describeWith(POSTGRES, 'on PostgreSQL', () =>
  defineStoreSuite('postgres', async (opts = {}) => {
    const url = await cluster().createDatabase()
    const store = await openStore(url, opts)
    const others: Store[] = []
    return {
      store,
      cleanup: async () => {
        for (const s of [store, ...others]) await s.close()
      },
      another: async () => {
        const s = await openStore(url, opts)
        others.push(s)
        return s
      },
      loseImportLock: (importId) => terminateLockHolder(url, importId)
    }
  })
)
