import pg from 'pg'
import { openPostgresStore, POSTGRES_MIGRATIONS } from '../../../src/main/store'
import { POSTGRES, usePostgres } from '../../helpers/postgres'
import { describeWith } from '../../helpers/prerequisites'
import { oldDefaultsSuite } from './suite-old-defaults'

const cluster = usePostgres()

describeWith(POSTGRES, 'on PostgreSQL', () => oldDefaultsSuite('postgres migration 0003', () => ({
  fresh: () => cluster().createDatabase(),
  open: (url, migrations) => openPostgresStore(url, migrations === undefined ? {} : { migrations }),
  migrations: POSTGRES_MIGRATIONS,
  before: 2,
  insertOldFit: (url, id, createdAt) => rawExec(url, `INSERT INTO fits (id, created_at, method, hyperparameters, reliabilities) VALUES ('${id}', '${createdAt}', 'per-agent', '{}', '{}')`),
  rawExec
})))

async function rawExec(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    await c.query(sql)
  } finally {
    await c.end()
  }
}
