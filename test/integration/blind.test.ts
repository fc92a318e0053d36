/**
 * Blind stays blind through every side door (shared/blind-suite.ts) on both backends: a SQLite file
 * in a temp folder, and a fresh database of a throwaway PostgreSQL cluster.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { defineBlindSuite } from './shared/blind-suite'

const cluster = usePostgres()

defineBlindSuite('a SQLite file', sqliteFile('arbiter-blind-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineBlindSuite('PostgreSQL', postgresDatabase(cluster)))
