import { openSqliteStore, SQLITE_MIGRATIONS } from '../../../src/main/store'
import { rawDb, useTempDir } from './sqlite-helpers'
import { oldDefaultsSuite } from './suite-old-defaults'

const tmp = useTempDir()
let n = 0

oldDefaultsSuite('sqlite migration 0006', () => ({
  fresh: () => Promise.resolve(tmp.dbPath(`db-${n++}.db`)),
  open: (path, migrations) => openSqliteStore(path, migrations === undefined ? {} : { migrations }),
  migrations: SQLITE_MIGRATIONS,
  before: 5,
  insertOldFit: (path, id, createdAt) => rawExec(path, `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities) VALUES ('${id}', '${createdAt}', 'per-agent', '{}', '{}')`),
  rawExec
}))

function rawExec(path: string, sql: string): Promise<void> {
  const db = rawDb(path)
  try {
    db.exec(sql)
    return Promise.resolve()
  } catch (e) {
    return Promise.reject(e as Error)
  } finally {
    db.close()
  }
}
