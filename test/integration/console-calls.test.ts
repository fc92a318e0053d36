/**
 * The console's contract calls (shared/console-calls-suite.ts) on both backends: a SQLite file in a
 * temp folder, and a fresh database of a throwaway PostgreSQL cluster — one suite, two backends.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { usePostgres } from '../helpers/postgres'
import { defineConsoleCallsSuite } from './shared/console-calls-suite'

const cluster = usePostgres()

defineConsoleCallsSuite('a SQLite file', sqliteFile('arbiter-calls-db-'))
defineConsoleCallsSuite('PostgreSQL', postgresDatabase(cluster))
