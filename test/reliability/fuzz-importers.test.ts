/**
 * Hostile input: property-based fuzzing of every importer — trace JSONL, label-aggregation
 * CSV in each dialect with and without --gold, label JSONL. 10,000 seeded cases: 9,000 exercise the
 * readers in memory (fast, pure) and 1,000 go through the full `runImport` into one SQLite database.
 * Every case must import correctly or be refused with clear errors (file, line, rule, message) or
 * fail with the service's typed error — never crash, hang or write part of a file. Reproduce a
 * failure with FUZZ_SEED=<seed printed below> (fast-check also prints the path to the failing case).
 */
import fc from 'fast-check'
import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_DIALECT, readTraceText } from '../../src/main/io'
import { runImport } from '../../src/main/service/import'
import { openStore, type Store } from '../../src/main/store'
import { reportSuite } from './report'
import { boundedSync } from './fuzz/bounded-sync'
import { benignCase, bytesOf, caseArb, seedOf, type FuzzCase } from './fuzz/cases'
import { FUZZ_ACTOR, runFullCase, type FullCase } from './fuzz/full-import'
import { check, checkCsvText, checkLabelText, checkTraceText, type ReaderVerdict } from './fuzz/reader-checks'
import { growthCases, measureGrowth } from './fuzz/growth'
import { FIXED_IN_IO, manyLabels, manyRoundsAndSeats, MANY_CANDIDATES } from './fuzz/regressions'
import { renameSeed } from './fuzz/rename'
import { COUNCIL_TRACES, csvSeeds, DATA_SLICES_MISSING, labelSeeds, traceSeeds, type SeedFile } from './fuzz/seeds'
import { itWith } from '../helpers/prerequisites'

const SEED = Number(process.env.FUZZ_SEED ?? 20261130)
/** 9,000 reader cases + 1,000 full imports = 10,000. */
const READER_RUNS = { traces: 4000, csv: 3000, labels: 2000 }
const FULL_RUNS = { traces: 400, csv: 400, labels: 200 }

const t0 = performance.now()
const tally = { cases: 0, full: 0, accepted: 0, rejected: 0, failed: 0, readerClean: 0, readerErrors: 0, worstGrowth: '' }
let dir: string
let store: Store

const req = (path: string, fileName: string, kind: 'traces' | 'csv' | 'labels', skipInvalid = false) => ({
  path, fileName, displayName: fileName, kind, skipInvalid, goldAs: null, dialect: DEFAULT_DIALECT, goldName: null, target: null
})

beforeAll(async () => {
  console.log(`[fuzz-importers] seed ${SEED} (set FUZZ_SEED to replay)`)
  dir = mkdtempSync(join(tmpdir(), 'arbiter-fuzz-'))
  store = await openStore(join(dir, 'fuzz.db'))
  // The database starts with the seeds themselves, so mutated files meet tasks they collide with.
  await runImport(store, req(COUNCIL_TRACES, 'council.trace.jsonl', 'traces'), FUZZ_ACTOR)
  for (const s of [...traceSeeds(), ...csvSeeds()]) {
    const path = join(dir, `seed-${s.fileName}`)
    writeFileSync(path, s.bytes)
    await runImport(store, { ...req(path, s.fileName, s.kind === 'csv' ? 'csv' : 'traces', true), dialect: s.dialect }, FUZZ_ACTOR)
  }
})

afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
  reportSuite('fuzz-importers', t0, { cases: tally.cases, seed: SEED, 'full imports': tally.full, accepted: tally.accepted, rejected: tally.rejected, 'failed (typed)': tally.failed, 'reader cases clean/with errors': `${tally.readerClean}/${tally.readerErrors}`, 'worst growth per input byte': tally.worstGrowth })
})

/** Reads one case in memory (bounded), and checks a benign-only case reads exactly as its seed. */
function readerProperty(seeds: SeedFile[], read: (seed: SeedFile, bytes: Buffer, gold: Buffer | null) => ReaderVerdict) {
  const baseline = new Map(seeds.map((s) => [s.name, read(s, s.bytes, s.gold)]))
  return (c: FuzzCase): void => {
    tally.cases++
    const seed = seedOf(seeds, c)
    const { bytes, gold } = bytesOf(seed, seed.bytes, seed.gold, c)
    const v = boundedSync(() => read(seed, bytes, gold), seed.fileName)
    if (v.errors === 0) tally.readerClean++
    else tally.readerErrors++
    if (benignCase(c)) {
      const base = c.useGold || seed.gold === null ? baseline.get(seed.name) : read(seed, seed.bytes, null)
      check(v.errors === 0 && v.key === base?.key, `a BOM/CRLF/blank-line edit changed what ${seed.fileName} means`)
    }
  }
}

describe('readers, in memory: 9,000 mutated files', () => {
  itWith(DATA_SLICES_MISSING, 'the CSV seeds include the data folder\'s slices (bluebird: whitespace, no header; D_Product: header, gold), read clean as stored', () => {
    const slices = csvSeeds().filter((s) => s.name === 'bluebird' || s.name === 'zheng')
    expect(slices.map((s) => s.name)).toEqual(['bluebird', 'zheng'])
    for (const s of slices) {
      const v = checkCsvText(s.bytes.toString('utf8'), s.fileName, s.dialect, s.gold === null ? null : { text: s.gold.toString('utf8'), file: `gold-${s.fileName}` })
      expect([v.accepted > 0, v.errors], s.name).toEqual([true, 0])
    }
  })

  it(`trace JSONL: ${READER_RUNS.traces} cases`, () => {
    const prop = readerProperty(traceSeeds(), (s, b) => checkTraceText(b.toString('utf8'), s.fileName))
    fc.assert(fc.property(caseArb('json', 60), prop), { seed: SEED, numRuns: READER_RUNS.traces })
  })

  it(`label-aggregation CSV, every dialect, with and without --gold: ${READER_RUNS.csv} cases`, () => {
    const prop = readerProperty(csvSeeds(), (s, b, g) =>
      checkCsvText(b.toString('utf8'), s.fileName, s.dialect, g === null ? null : { text: g.toString('utf8'), file: `gold-${s.fileName}` })
    )
    fc.assert(fc.property(caseArb('csv', 60), prop), { seed: SEED + 1, numRuns: READER_RUNS.csv })
  })

  it(`label JSONL: ${READER_RUNS.labels} cases`, () => {
    const prop = readerProperty(labelSeeds(), (s, b) => checkLabelText(b.toString('utf8'), s.fileName))
    fc.assert(fc.property(caseArb('json', 60), prop), { seed: SEED + 2, numRuns: READER_RUNS.labels })
  })
})

describe('full imports into one database: 1,000 mutated files, no partial write', () => {
  const full = (seeds: SeedFile[], kind: 'json' | 'csv', runs: number, seedOffset: number) => async () => {
    const arb = fc.record({ c: caseArb(kind, 80), fresh: fc.boolean(), skipInvalid: fc.boolean(), goldAs: fc.constantFrom(null, 'random' as const, 'escalation' as const) })
    await fc.assert(
      fc.asyncProperty(arb, async ({ c, fresh, skipInvalid, goldAs }) => {
        tally.cases++
        const n = ++tally.full
        const seed = seedOf(seeds, c)
        // Half the cases get fresh task ids, so they can be accepted rather than collide.
        const base = fresh ? renameSeed(seed, `f${n}-`) : { bytes: seed.bytes, gold: seed.gold }
        const { bytes, gold } = bytesOf(seed, base.bytes, base.gold, c)
        const fc1: FullCase = { kind: seed.kind, fileName: seed.fileName, bytes, dialect: seed.dialect, gold, skipInvalid, goldAs: seed.kind === 'labels' ? null : goldAs }
        const r = await runFullCase(store, dir, n, fc1)
        if (r.status === 'imported') tally.accepted++
        else if (r.status === 'failed') tally.failed++
        else tally.rejected++
        rmSync(join(dir, `case-${n}-${seed.fileName}`), { force: true })
      }),
      { seed: SEED + 10 + seedOffset, numRuns: runs }
    )
  }
  it(`trace JSONL: ${FULL_RUNS.traces} imports`, full(traceSeeds(), 'json', FULL_RUNS.traces, 0))
  it(`label-aggregation CSV: ${FULL_RUNS.csv} imports`, full(csvSeeds(), 'csv', FULL_RUNS.csv, 1))
  it(`label JSONL: ${FULL_RUNS.labels} imports`, full(labelSeeds(), 'json', FULL_RUNS.labels, 2))
  it('the database is intact after all of them', async () => {
    expect((await store.integrityCheck()).ok).toBe(true)
  })
})

describe('regressions found by fuzzing, refused by the readers with file, line and rule', () => {
  for (const r of FIXED_IN_IO) {
    it(r.name, async () => {
      const path = join(dir, `reg-${r.fileName}`)
      writeFileSync(path, `${r.text}\n`)
      const before = JSON.stringify(await store.counts())
      const out = await runImport(store, { ...req(path, r.fileName, r.kind), dialect: r.dialect ?? DEFAULT_DIALECT }, FUZZ_ACTOR)
      expect(out.status).toBe('rejected')
      expect(out.errors[0]).toMatchObject({ file: r.fileName, line: r.line ?? (r.kind === 'csv' ? 2 : 1), rule: r.rule })
      expect(JSON.stringify(await store.counts())).toBe(before)
    })
  }

  it('a line of 300,000 candidates is refused at once (the duplicate check was quadratic; now too-many-candidates)', () => {
    const res = boundedSync(() => readTraceText(MANY_CANDIDATES, 'many.jsonl'), 'many candidates')
    expect(res.errors.map((e) => [e.line, e.task, e.rule])).toEqual([[1, 'r-many', 'too-many-candidates']])
    expect(res.traces).toEqual([])
  })
})

/** Database file growth (main file + WAL) while `job` runs. */
async function growth(db: string, job: () => Promise<unknown>): Promise<number> {
  const size = (): number => [db, `${db}-wal`].reduce((s, f) => s + (existsSync(f) ? statSync(f).size : 0), 0)
  const before = size()
  await job()
  return size() - before
}

describe('found by fuzzing: an import of two files, and small files that made huge databases', () => {
  // service/import/csv.ts skipped tasks by `problems.lines`, a set of line numbers that mixed the
  // gold file's lines with the answers file's: a bad gold row on line 2 dropped the answers task
  // whose first row is on line 2, under --skip-invalid. Problems now keep lines by file.
  it('--skip-invalid: a bad gold row does not drop the answers task on the same line number', async () => {
    const answers = join(dir, 'skip-gold.csv')
    const gold = join(dir, 'skip-gold.gold.csv')
    writeFileSync(answers, 'task,worker,label\nsg-1,w1,yes\nsg-2,w1,no\nsg-2,w2,yes\n')
    writeFileSync(gold, 'task,label\nsg-2\n')
    const out = await runImport(store, { ...req(answers, 'skip-gold.csv', 'csv', true), dialect: { ...DEFAULT_DIALECT, gold }, goldName: 'skip-gold.gold.csv' }, FUZZ_ACTOR)
    expect(out.errors).toMatchObject([{ file: 'skip-gold.gold.csv', line: 2, rule: 'missing-column' }])
    expect(out.status).toBe('imported')
    expect((await store.existingTasks(['sg-1', 'sg-2'])).map((t) => t.taskId).sort()).toEqual(['sg-1', 'sg-2'])
  })

  // Amplification: a small file must not make a huge database.
  const bounded = async (name: string, text: string, kind: 'traces' | 'csv'): Promise<void> => {
    const d = mkdtempSync(join(tmpdir(), 'arbiter-amp-'))
    const db = join(d, 'amp.db')
    const s = await openStore(db)
    try {
      const path = join(d, name)
      writeFileSync(path, text)
      let status = ''
      const grew = await growth(db, async () => {
        status = (await runImport(s, req(path, name, kind), FUZZ_ACTOR)).status
      })
      // Refused, or stored in space proportional to the file (64× leaves room for indexes and tallies).
      expect(status === 'rejected' || grew <= 64 * Buffer.byteLength(text), `${name}: ${status}, database grew ${(grew / 1e6).toFixed(1)} MB for a ${(Buffer.byteLength(text) / 1e3).toFixed(0)} kB file`).toBe(true)
    } finally {
      await s.close()
      rmSync(d, { recursive: true, force: true })
    }
  }
  it('a trace whose 2,000 moves each open a new seat and round', () => bounded('tallies.jsonl', `${manyRoundsAndSeats(2000)}\n`, 'traces'))
  it('a CSV of 2,000 rows with 2,000 distinct labels', () => bounded('labels.csv', manyLabels(2000), 'csv'))
})

/** The database's growth bound, in bytes per byte of input (docs/reliability.md). */
const GROWTH_PER_INPUT_BYTE = 64
/** The growth cases together take about 15 s on a quiet machine; past this the suite fails as a hang. */
const GROWTH_LIMIT_MS = 120_000

describe(`the database grows by at most ${GROWTH_PER_INPUT_BYTE} bytes per input byte, on adversarial files the limits admit`, () => {
  let started: number | null = null
  let worst = 0
  for (const c of growthCases()) {
    it(c.name, async () => {
      started ??= performance.now()
      expect(performance.now() - started, 'the growth cases ran past their time cap').toBeLessThan(GROWTH_LIMIT_MS)
      const g = await measureGrowth(c)
      const figure = `${g.perInputByte.toFixed(1)} bytes/byte (${(g.grewBytes / 1e6).toFixed(2)} MB for ${(g.inputBytes / 1e6).toFixed(3)} MB)`
      console.log(`[fuzz-importers] growth ${c.fileName}: ${g.status}, ${figure}`)
      // A file built to fit the limits is imported whole (a refusal would prove nothing); a hostile
      // one may be refused, by a size rule, writing nothing.
      if (c.admitted) expect(g.status, g.error ?? '').toBe('imported')
      else if (g.status !== 'imported') expect([g.status, g.error?.split(':')[0]]).toEqual(['rejected', expect.stringMatching(/^(task-too-large|tallies-too-large|too-many-\w+)$/)])
      if (g.perInputByte > worst) {
        worst = g.perInputByte
        tally.worstGrowth = `${figure}, ${c.fileName}`
      }
      expect(g.perInputByte, `${c.fileName}: ${figure}`).toBeLessThanOrEqual(GROWTH_PER_INPUT_BYTE)
    }, GROWTH_LIMIT_MS)
  }
})
