/**
 * A decide's finish commits without checkpointing (connection.ts `writeUncheckpointed`): its
 * caller gets the result while the write-ahead log is still unchecked, and `payCheckpoint` — run
 * by the store's close — copies it into the database file afterwards. An ordinary commit of as
 * many pages checkpoints at once.
 */
import Database from 'better-sqlite3'
import { statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { applyPragmas, Sql } from '../../../src/main/store/sqlite/connection'
import { useTempDir } from './sqlite-helpers'

/** About 6 MiB: well past the 1,000-page autocheckpoint. */
function fill(q: Sql, table: string): void {
  q.db.exec(`CREATE TABLE ${table} (x BLOB)`)
  const insert = q.db.prepare(`INSERT INTO ${table} VALUES (?)`)
  for (let i = 0; i < 1500; i++) insert.run(Buffer.alloc(4000, i % 251))
}

describe('a commit that leaves its checkpoint to later', () => {
  const tmp = useTempDir()

  it('keeps the database file as it was until the checkpoint is paid; an ordinary commit checkpoints at once', () => {
    const path = tmp.dbLocation()
    const db = new Database(path)
    applyPragmas(db, { readonly: false, busyTimeoutMs: 1000 })
    const q = new Sql(db)
    const size = () => statSync(path).size

    const before = size()
    q.writeUncheckpointed(() => fill(q, 'deferred'))
    expect(size()).toBe(before) // every new page is still in the log
    expect(q.db.prepare('SELECT count(*) AS n FROM deferred').get()).toEqual({ n: 1500 }) // and visible
    q.payCheckpoint()
    expect(size()).toBeGreaterThan(before + 5_000_000)

    const paid = size()
    q.write(() => fill(q, 'ordinary'))
    expect(size()).toBeGreaterThan(paid + 5_000_000)
    q.payCheckpoint() // nothing owed: a no-op
    db.close()
  })
})
