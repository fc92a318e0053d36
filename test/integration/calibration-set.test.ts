/**
 * The calibration set is nobody's to steer (shared/calibration-set-suite.ts) on both backends: a SQLite file
 * in a temp folder, and a fresh database of a throwaway PostgreSQL cluster.
 */
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { defineCalibrationSetSuite } from './shared/calibration-set-suite'

const cluster = usePostgres()

defineCalibrationSetSuite('a SQLite file', sqliteFile('arbiter-calset-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineCalibrationSetSuite('PostgreSQL', postgresDatabase(cluster)))
