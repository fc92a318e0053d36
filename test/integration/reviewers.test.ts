/**
 * Reviewer logins and reservations over the web host (shared/reviewers-suite.ts) on both backends:
 * a SQLite file in a temp folder, and a fresh database of a throwaway PostgreSQL cluster.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { usePostgres } from '../helpers/postgres'
import { defineReviewersSuite } from './shared/reviewers-suite'

const cluster = usePostgres()

defineReviewersSuite('a SQLite file', sqliteFile('arbiter-reviewers-'))
defineReviewersSuite('PostgreSQL', postgresDatabase(cluster))
