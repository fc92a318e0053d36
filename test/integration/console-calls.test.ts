/**
 * The console's contract calls (shared/console-calls-suite.ts) on both backends: a SQLite file in a
 * temp folder, and a fresh database of a throwaway PostgreSQL cluster — one suite, two backends.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { defineConsoleCallsSuite } from './shared/console-calls-suite'

const cluster = usePostgres()

defineConsoleCallsSuite('a SQLite file', sqliteFile('arbiter-calls-db-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineConsoleCallsSuite('PostgreSQL', postgresDatabase(cluster)))
