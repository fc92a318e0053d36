/**
 * Attacks of one reviewer on another over the web host with per-reviewer logins (shared/security-suite.ts) on
 * both backends: a SQLite file in a temp folder, and a fresh database of a throwaway PostgreSQL
 * cluster.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { defineSecuritySuite } from './shared/security-suite'

const cluster = usePostgres()

defineSecuritySuite('a SQLite file', sqliteFile('arbiter-security-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineSecuritySuite('PostgreSQL', postgresDatabase(cluster)))
