/**
 * Several reviewers per task (shared/team-suite.ts) on both backends: a SQLite file in a temp
 * folder, and a fresh database of a throwaway PostgreSQL cluster — one suite, two backends.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { defineTeamSuite } from './shared/team-suite'

const cluster = usePostgres()

defineTeamSuite('a SQLite file', sqliteFile('arbiter-team-db-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineTeamSuite('PostgreSQL', postgresDatabase(cluster)))
