/**
 * The one place that says where the real datasets are, for the tests, `npm run eval`
 * and the scripts. The data folder is `ARBITER_DATA_DIR` when set (a relative value is taken from
 * the working directory, as a shell user means it), else `shared/data` beside the repository folder,
 * resolved from this file so the working directory never matters. No other file names that folder:
 * test/unit/data-paths.test.ts fails on any other hard-coded data path.
 *
 * The datasets whose licences allow it ship in the repository, byte-for-byte as stored, under
 * test/fixtures/data/<name>/ with their PROVENANCE.md and a licence note; the tests always read
 * those copies, so they run the same on every clone. The others are read from the data folder only.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const DATA_DIR_ENV = 'ARBITER_DATA_DIR'

/** The repository's root folder (this file is scripts/data-dir.ts). */
export const REPO_ROOT = resolve(__dirname, '..')

/** Where the shipped datasets are copied. */
export const FIXTURE_DATA_DIR = join(REPO_ROOT, 'test', 'fixtures', 'data')

/** Datasets copied into FIXTURE_DATA_DIR: Apache-2.0, and MMLU-Pro's outputs (Apache-2.0 repository, MIT dataset card; see their PROVENANCE.md). */
export const SHIPPED_DATASETS: readonly string[] = ['crowdkit-ds-fixture', 'gal-adultcontent', 'mmlu-pro-llm-outputs']

/** The data folder: ARBITER_DATA_DIR, else `shared/data` beside the repository. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  const set = env[DATA_DIR_ENV]
  return set !== undefined && set !== '' ? resolve(set) : resolve(REPO_ROOT, '..', 'shared', 'data')
}

/** The folder one dataset is read from: its shipped copy when there is one, else the data folder's. */
export function datasetDir(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return SHIPPED_DATASETS.includes(name) ? join(FIXTURE_DATA_DIR, name) : join(dataDir(env), name)
}

/** The message every consumer gives for a missing dataset. */
export const missingDataset = (path: string): string => `no dataset at ${path} (set ${DATA_DIR_ENV})`

/**
 * Why the data folder's own copy of a dataset cannot be read, or null when it can: the data folder
 * itself when that is absent (one reason for every dataset), else the dataset's folder.
 */
export function storedDatasetMissing(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const root = dataDir(env)
  const dir = join(root, name)
  if (existsSync(dir)) return null
  return missingDataset(existsSync(root) ? dir : root)
}

/** Why a dataset cannot be read where `datasetDir` says, or null when it can. */
export function datasetMissing(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!SHIPPED_DATASETS.includes(name)) return storedDatasetMissing(name, env)
  const dir = datasetDir(name, env)
  return existsSync(dir) ? null : missingDataset(dir)
}
