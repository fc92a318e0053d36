/**
 * Where the tests, eval and the scripts find the real datasets (scripts/data-dir.ts), and
 * what becomes of a suite when something it needs is missing (test/helpers/prerequisites.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dataDir, datasetDir, datasetMissing, FIXTURE_DATA_DIR, REPO_ROOT, SHIPPED_DATASETS, storedDatasetMissing } from '../../scripts/data-dir'
import { gate, underCi } from '../helpers/prerequisites'
import { postgresMissing } from '../helpers/pg-cluster'
import { chromiumMissing } from '../e2e/browser'

describe('dataDir', () => {
  it('is the folder data of the folder shared beside the repository, unless ARBITER_DATA_DIR says otherwise', () => {
    const beside = dataDir({})
    expect(isAbsolute(beside)).toBe(true)
    expect(basename(beside)).toBe('data')
    expect(basename(dirname(beside))).toBe('shared')
    expect(dirname(dirname(beside))).toBe(dirname(REPO_ROOT))
    expect(dataDir({ ARBITER_DATA_DIR: '' })).toBe(beside)
    expect(dataDir({ ARBITER_DATA_DIR: '/srv/councils' })).toBe('/srv/councils')
    // A relative value means what it means in the shell that set it.
    expect(dataDir({ ARBITER_DATA_DIR: 'councils/data' })).toBe(resolve(process.cwd(), 'councils/data'))
  })

  it('reads the shipped datasets from test/fixtures/data, the others from the data folder', () => {
    const env = { ARBITER_DATA_DIR: '/srv/councils' }
    expect(SHIPPED_DATASETS).toEqual(['crowdkit-ds-fixture', 'gal-adultcontent', 'mmlu-pro-llm-outputs'])
    expect(datasetDir('gal-adultcontent', env)).toBe(join(FIXTURE_DATA_DIR, 'gal-adultcontent'))
    expect(datasetDir('mmlu-pro-llm-outputs', env)).toBe(join(FIXTURE_DATA_DIR, 'mmlu-pro-llm-outputs'))
    expect(datasetDir('zheng-d-product', env)).toBe('/srv/councils/zheng-d-product')
    expect(FIXTURE_DATA_DIR).toBe(join(REPO_ROOT, 'test/fixtures/data'))
  })
})

describe('datasetMissing', () => {
  it('names the data folder when it is absent, the dataset folder when only that is, and nothing for a shipped dataset', () => {
    expect(datasetMissing('zheng-d-product', { ARBITER_DATA_DIR: '/nonexistent/data' })).toBe('no dataset at /nonexistent/data (set ARBITER_DATA_DIR)')
    const empty = mkdtempSync(join(tmpdir(), 'arbiter-data-dir-'))
    try {
      expect(datasetMissing('zheng-d-product', { ARBITER_DATA_DIR: empty })).toBe(`no dataset at ${join(empty, 'zheng-d-product')} (set ARBITER_DATA_DIR)`)
      for (const name of SHIPPED_DATASETS) expect(datasetMissing(name, { ARBITER_DATA_DIR: empty })).toBeNull()
      // The data folder's own copy of a shipped dataset (what the fixture test compares with).
      expect(storedDatasetMissing('gal-adultcontent', { ARBITER_DATA_DIR: empty })).toBe(`no dataset at ${join(empty, 'gal-adultcontent')} (set ARBITER_DATA_DIR)`)
      expect(storedDatasetMissing('gal-adultcontent', { ARBITER_DATA_DIR: '/nonexistent/data' })).toBe('no dataset at /nonexistent/data (set ARBITER_DATA_DIR)')
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})

describe('gate: a suite that needs what is missing', () => {
  const reason = 'no dataset at /x/data (set ARBITER_DATA_DIR)'
  it('runs when nothing is missing', () => {
    expect(gate(null, 'reads D_Product', false)).toEqual({ run: true })
    expect(gate([null, null], 'reads D_Product', true)).toEqual({ run: true })
  })

  it('is skipped with the first reason in its title, or fails naming it under CI', () => {
    expect(gate([null, reason, 'no Chromium'], 'reads D_Product', false)).toEqual({ run: false, skipTitle: `reads D_Product — skipped: ${reason}` })
    expect(gate(reason, 'reads D_Product', true)).toEqual({ run: false, failure: `CI=true: ${reason}` })
  })

  it('takes CI from the environment as runners set it', () => {
    expect([underCi({ CI: 'true' }), underCi({ CI: '1' }), underCi({}), underCi({ CI: '' }), underCi({ CI: 'false' }), underCi({ CI: '0' })]).toEqual([true, true, false, false, false, false])
  })
})

describe('the other prerequisites', () => {
  it('Chromium: CHROMIUM_PATH when it exists, else a reason naming where it looked', () => {
    expect(chromiumMissing({ CHROMIUM_PATH: process.execPath })).toBeNull()
    expect(chromiumMissing({ CHROMIUM_PATH: '/nonexistent/chromium' })).toBe('no Chromium at /nonexistent/chromium (install chromium or set CHROMIUM_PATH)')
  })

  it('PostgreSQL: the binaries on PATH or under the Debian folder, or a server URL; else a reason saying what to install', () => {
    const nowhere = join(tmpdir(), 'arbiter-no-postgresql')
    expect(postgresMissing({ PATH: '' }, nowhere)).toBe('no PostgreSQL server binaries (initdb, pg_ctl, postgres) on PATH nor in /usr/lib/postgresql/*/bin (install postgresql or set ARBITER_PG_URL)')
    expect(postgresMissing({ PATH: '', ARBITER_PG_URL: 'postgres://u@db.example/postgres' }, nowhere)).toBeNull()
  })
})
