import { describe, expect, it } from 'vitest'
import {
  checkMigrationList,
  migrationSha256,
  planMigrations,
  type AppliedMigration,
  type Migration
} from '../../../src/main/store/migrations'
import { SQLITE_MIGRATIONS } from '../../../src/main/store'

const m = (version: number, name = `step-${version}`, sql = `-- ${version}`): Migration => ({ version, name, sql })
const applied = (mig: Migration): AppliedMigration => ({
  version: mig.version, name: mig.name, sha256: migrationSha256(mig), appliedAt: '2026-01-01T00:00:00.000Z'
})

describe('migration planning', () => {
  it('ships a valid, strictly increasing list of kebab-named migrations', () => {
    expect(() => checkMigrationList(SQLITE_MIGRATIONS)).not.toThrow()
    expect(SQLITE_MIGRATIONS.map((x) => x.version)).toEqual(SQLITE_MIGRATIONS.map((_, i) => i + 1))
  })

  it('hashes the SQL text (sha256, hex)', () => {
    expect(migrationSha256(m(1, 'a', 'abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })

  it('plans everything for an empty database and nothing for an up-to-date one', () => {
    const code = [m(1), m(2), m(3)]
    expect(planMigrations([], code)).toEqual({ from: 0, to: 3, pending: code })
    expect(planMigrations(code.map(applied), code)).toEqual({ from: 3, to: 3, pending: [] })
    expect(planMigrations([applied(m(1))], code).pending.map((x) => x.version)).toEqual([2, 3])
  })

  it('refuses lists that do not strictly increase or have bad names', () => {
    expect(() => checkMigrationList([m(1), m(1)])).toThrow(/strictly increase: 1 follows 1/)
    expect(() => checkMigrationList([m(2), m(1)])).toThrow(/strictly increase/)
    expect(() => checkMigrationList([m(0)])).toThrow(/positive integer/)
    expect(() => checkMigrationList([m(1, 'Not_Kebab')])).toThrow(/kebab-case/)
    expect(() => checkMigrationList([m(1, 'empty', '  ')])).toThrow(/no SQL/)
  })

  it('refuses newer, unknown, edited and out-of-order histories, naming the version', () => {
    expect(() => planMigrations([applied(m(1)), applied(m(2))], [m(1)])).toThrow(/version 2, newer than .* \(latest 1\)/)
    expect(() => planMigrations([applied(m(2, 'other'))], [m(1), m(3)])).toThrow(/0002 "other", which this build does not have/)
    expect(() => planMigrations([applied(m(1, 'step-1', 'old'))], [m(1, 'step-1', 'new')])).toThrow(/0001 "step-1" was edited/)
    expect(() => planMigrations([applied(m(1)), applied(m(3))], [m(1), m(2), m(3)])).toThrow(/0002 "step-2" is missing/)
  })
})
