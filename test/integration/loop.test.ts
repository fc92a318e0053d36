/**
 * The operating loop (shared/loop-suite.ts) on both backends: a SQLite file in a temp folder, and a
 * fresh database of a throwaway PostgreSQL cluster — one suite, two backends.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { defineLoopSuite } from './shared/loop-suite'

const cluster = usePostgres()

defineLoopSuite('a SQLite file', sqliteFile('arbiter-loop-db-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineLoopSuite('PostgreSQL', postgresDatabase(cluster)))
