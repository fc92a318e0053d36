/**
 * PostgreSQL's staged writes (postgres/connection.ts): an import's batches and a decide's pages
 * commit without waiting for the disk — in their own transaction only; every other write, and the
 * connection afterwards, keeps the server's durability.
 */
import pg from 'pg'
import { expect, it } from 'vitest'
import { transaction } from '../../../src/main/store/postgres/connection'
import { POSTGRES, usePostgres } from '../../helpers/postgres'
import { describeWith } from '../../helpers/prerequisites'

const cluster = usePostgres()

describeWith(POSTGRES, 'PostgreSQL staged writes', () => {
  it('commit with synchronous_commit off inside their transaction, and nowhere else', async () => {
    const url = await cluster().createDatabase()
    const pool = new pg.Pool({ connectionString: url, max: 1 })
    const client = await pool.connect()
    const shown = async (c: pg.ClientBase) => ((await c.query('SHOW synchronous_commit')).rows[0] as { synchronous_commit: string }).synchronous_commit
    try {
      // The session's own setting (the test cluster's default is off): on, to see it kept.
      await client.query('SET synchronous_commit = on')
      const inside = (mode: 'staged' | 'write' | 'task') =>
        transaction(pool, mode, async (q) => (await q.get<{ synchronous_commit: string }>('SHOW synchronous_commit'))?.synchronous_commit, client)
      expect(await inside('staged')).toBe('off')
      expect(await shown(client)).toBe('on')
      expect(await inside('write')).toBe('on')
      expect(await inside('task')).toBe('on')
      // Still one transaction at SERIALIZABLE, like any write.
      expect(await transaction(pool, 'staged', async (q) => (await q.get<{ transaction_isolation: string }>('SHOW transaction_isolation'))?.transaction_isolation, client)).toBe('serializable')
    } finally {
      client.release()
      await pool.end()
    }
  })
})
