/**
 * Reviewer logins and reservations over the web host (shared/reviewers-suite.ts) on both backends:
 * a SQLite file in a temp folder, and a fresh database of a throwaway PostgreSQL cluster.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { defineReviewersSuite } from './shared/reviewers-suite'

const cluster = usePostgres()

defineReviewersSuite('a SQLite file', sqliteFile('arbiter-reviewers-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineReviewersSuite('PostgreSQL', postgresDatabase(cluster)))
