/**
 * Undo, history and flags over the web host (shared/history-flags-suite.ts) on both backends:
 * a SQLite file in a temp folder, and a fresh database of a throwaway PostgreSQL cluster.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { defineHistoryFlagsSuite } from './shared/history-flags-suite'

const cluster = usePostgres()

defineHistoryFlagsSuite('a SQLite file', sqliteFile('arbiter-history-flags-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineHistoryFlagsSuite('PostgreSQL', postgresDatabase(cluster)))
