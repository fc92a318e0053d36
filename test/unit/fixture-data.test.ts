/**
 * The datasets shipped in test/fixtures/data are the data folder's copies byte for byte,
 * with their PROVENANCE.md and a licence note, and small enough for the repository. The comparison
 * needs the data folder: without it, it is skipped with the reason (and fails under CI).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dataDir, FIXTURE_DATA_DIR, SHIPPED_DATASETS, storedDatasetMissing } from '../../scripts/data-dir'
import { describeWith } from '../helpers/prerequisites'

/** Every file under `dir`, relative to it, sorted. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort()
}

const NOTE = 'LICENSE.md'
/** A cap that keeps an accidental copy of a large dataset out of the repository (the MMLU-Pro zips are 18 MB). */
const MAX_BYTES = 20 * 1024 * 1024

describe('the shipped datasets', () => {
  for (const name of SHIPPED_DATASETS) {
    it(`${name}: PROVENANCE.md, a licence note naming Apache-2.0, under 20 MB`, () => {
      const dir = join(FIXTURE_DATA_DIR, name)
      const all = files(dir)
      expect(all).toEqual(expect.arrayContaining(['PROVENANCE.md', NOTE]))
      expect(readFileSync(join(dir, NOTE), 'utf8')).toMatch(/Apache License, Version 2\.0[\s\S]*LICENSE-Apache-2\.0\.txt/)
      expect(all.reduce((n, f) => n + statSync(join(dir, f)).size, 0)).toBeLessThan(MAX_BYTES)
    })
  }

  it('come with the Apache-2.0 text', () => {
    expect(readFileSync(join(FIXTURE_DATA_DIR, 'LICENSE-Apache-2.0.txt'), 'utf8')).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004[\s\S]*END OF TERMS AND CONDITIONS\s*$/)
  })
})

for (const name of SHIPPED_DATASETS) {
  const stored = join(dataDir(), name)
  describeWith(storedDatasetMissing(name), `${name}: the shipped copy is the data folder's, byte for byte`, () => {
    it('holds the same files, plus the licence note, with the same bytes', () => {
      const copy = join(FIXTURE_DATA_DIR, name)
      const want = files(stored)
      expect(files(copy)).toEqual([...want, NOTE].sort())
      for (const f of want) expect(readFileSync(join(copy, f)).equals(readFileSync(join(stored, f))), relative(FIXTURE_DATA_DIR, join(copy, f))).toBe(true)
    })
  })
}
