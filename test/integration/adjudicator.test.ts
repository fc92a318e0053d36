/**
 * The adjudicator's rights over per-reviewer logins (shared/adjudicator-suite.ts) on both
 * backends: a SQLite file in a temp folder, and a fresh database of a throwaway PostgreSQL cluster.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { defineAdjudicatorSuite } from './shared/adjudicator-suite'

const cluster = usePostgres()

defineAdjudicatorSuite('a SQLite file', sqliteFile('arbiter-adjudicator-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineAdjudicatorSuite('PostgreSQL', postgresDatabase(cluster)))
