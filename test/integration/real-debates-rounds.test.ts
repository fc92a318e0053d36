/**
 * The debate-rounds form on the real debates of the data folder's real-debates (docs/formats.md "Debate
 * rounds"): each `rounds*.csv` gives the tasks of its `traces*.jsonl` — ids, candidates in order,
 * gold, group, question, seat models, and per move (id, round, seat, force, answer, text) — and,
 * with its `candidates` column dropped, the same candidates wherever they are not a multiple-choice
 * letter set (derived candidates are the letters seen, not the set offered). One of them then
 * imports through the CLI.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { importCommand } from '../../src/main/cli/commands/import'
import { csvLine, DEFAULT_DIALECT, parseRecords, readRoundsFile, readTraceFile, readTraceOrCsv } from '../../src/main/io'
import { openStore } from '../../src/main/store'
import type { Trace } from '../../src/shared/trace'
import { datasetDir } from '../../scripts/data-dir'
import { dataset, describeWith } from '../helpers/prerequisites'

const DEBATES = datasetDir('real-debates')
const MISSING = dataset('real-debates')
const present = MISSING === null

/** Every rounds*.csv beside its traces*.jsonl (rounds_run2.csv ↔ traces_run2.jsonl). */
const pairs: { rounds: string; traces: string }[] = present
  ? readdirSync(DEBATES, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) =>
        readdirSync(join(DEBATES, d.name))
          .filter((f) => /^rounds.*\.csv$/.test(f))
          .map((f) => ({ rounds: join(DEBATES, d.name, f), traces: join(DEBATES, d.name, f.replace(/^rounds/, 'traces').replace(/\.csv$/, '.jsonl')) }))
      )
  : []

/** What the two forms must agree on (docs/formats.md); the traces carry a few extra fields besides. */
function essence(t: Trace, candidates = true) {
  return {
    task: t.task,
    ...(candidates ? { candidates: t.candidates } : {}),
    gold: t.gold ?? null,
    group: t.group ?? null,
    question: t.question ?? null,
    seats: (t.seats ?? []).map((s) => [s.id, s.model ?? null]),
    moves: t.moves.map((m) => [m.id, m.round, m.seat, m.force, m.answer ?? null, m.text ?? null])
  }
}

const isLetterSet = (candidates: string[]): boolean => candidates.every((c) => /^[A-J]$/.test(c))

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-debates-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describeWith(MISSING, 'real debates: rounds*.csv gives the tasks of traces*.jsonl', () => {
  it('finds the five rounds files, each with its traces file', () => {
    expect(pairs.length).toBe(5)
    for (const p of pairs) expect(existsSync(p.traces), p.traces).toBe(true)
  })

  for (const p of pairs) {
    const name = p.rounds.slice(DEBATES.length + 1)
    it(`${name}: same ids, candidates, gold, group, question, seat models and moves`, async () => {
      const [rounds, traces] = await Promise.all([readRoundsFile(p.rounds, DEFAULT_DIALECT), readTraceFile(p.traces)])
      expect(rounds.errors).toEqual([])
      expect(traces.errors).toEqual([])
      expect(rounds.traces.length).toBeGreaterThan(0)
      expect(rounds.traces.map((t) => t.task)).toEqual(traces.traces.map((t) => t.task))
      rounds.traces.forEach((t, i) => expect(essence(t), t.task).toEqual(essence(traces.traces[i])))
      // The stateless commands' reader finds the form by its header.
      expect((await readTraceOrCsv(p.rounds, DEFAULT_DIALECT)).traces).toEqual(rounds.traces)
    })

    it(`${name} without its candidates column: the traces' candidates on every task that is not a letter set`, async () => {
      const text = readFileSync(p.rounds, 'utf8')
      const { records, errors } = parseRecords(text, 'comma', p.rounds)
      expect(errors).toEqual([])
      const drop = records[0].fields.indexOf('candidates')
      expect(drop).toBeGreaterThanOrEqual(0)
      const copy = join(dir, name.replace(/\//g, '__'))
      writeFileSync(copy, records.map((r) => csvLine(r.fields.filter((_, i) => i !== drop))).join(''))
      const [derived, traces] = await Promise.all([readRoundsFile(copy, DEFAULT_DIALECT), readTraceFile(p.traces)])
      expect(derived.errors).toEqual([])
      expect(derived.traces.map((t) => t.task)).toEqual(traces.traces.map((t) => t.task))
      let open = 0
      derived.traces.forEach((t, i) => {
        const want = traces.traces[i]
        expect(essence(t, false), t.task).toEqual(essence(want, false))
        if (isLetterSet(want.candidates)) return
        open++
        expect(t.candidates, t.task).toEqual(want.candidates)
      })
      expect(open).toBeGreaterThan(0)
    })
  }

  it('imports a rounds.csv through the CLI into a new database, once', async () => {
    const file = join(DEBATES, 'tt6746690-gsm/rounds.csv')
    const db = join(dir, 'x.db')
    const run = async (): Promise<{ code: number; out: string; err: string }> => {
      let out = ''
      let err = ''
      const code = await importCommand.run([file, '--db', db, '--json'], { out: (t) => (out += t), err: (t) => (err += t) })
      return { code, out, err }
    }
    const first = await run()
    expect(first.code, first.err).toBe(0)
    expect(JSON.parse(first.out)).toMatchObject({ status: 'imported', kind: 'rounds', tasks: 100, moves: 600, seats: 3, errorCount: 0 })
    const again = await run()
    expect(JSON.parse(again.out)).toMatchObject({ status: 'already-imported' })
    const store = await openStore(db)
    try {
      expect((await store.counts()).tasks).toBe(100)
      const task = (await store.taskDetail('tt6746690-gsm-0000')).task
      expect(task.candidates).toEqual(['18', 'other'])
      expect(task.models).toEqual({ A1: 'gpt-3.5-turbo-0301 (temperature 0)', A2: 'gpt-3.5-turbo-0301 (temperature 0)', A3: 'gpt-3.5-turbo-0301 (temperature 0)' })
      expect(task.moves.map((m) => [m.id, m.force])).toEqual([
        ['r0-A1', 'propose'], ['r0-A2', 'propose'], ['r0-A3', 'propose'], ['r1-A1', 'vote'], ['r1-A2', 'vote'], ['r1-A3', 'vote']
      ])
    } finally {
      await store.close()
    }
  })
})
