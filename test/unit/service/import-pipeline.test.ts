import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { decodeTallyPack, encodeTallyPack, unpack } from '../../../src/main/store/tally-pack'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Trace } from '../../../src/shared/trace'
import { buildTallies, SeatIndex } from '../../../src/main/engine'
import { runImport, type ImportRequest } from '../../../src/main/service/import'
import { taskInputOf, talliesOf } from '../../../src/main/service/import/task-input'
import { toTaskTallies } from '../../../src/main/service/fit/corpus'
import { openStore, type Actor, type Store } from '../../../src/main/store'
import { MAX_MOVE_TEXT } from '../../../src/main/io'
import { EXAMPLE_TRACES } from '../../helpers/seed'

const ACTOR: Actor = { reviewer: 'ana', sessionId: 's', shell: 'cli' }
let dir: string
let store: Store

const req = (path: string, extra: Partial<ImportRequest> = {}): ImportRequest => ({
  path, fileName: path, displayName: 'file', kind: 'auto', skipInvalid: false, goldAs: null,
  dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null, ...extra
})

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-imp-'))
  store = await openStore(join(dir, 'a.db'))
})
afterEach(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a trace line → the store’s task', () => {
  const raw = JSON.parse(readFileSync(EXAMPLE_TRACES, 'utf8').split('\n')[0]) as Record<string, unknown>
  raw.extra = { kept: true }
  ;(raw.moves as Record<string, unknown>[])[0].note = 'kept too'

  it('keeps unknown fields for round-tripping, once (moves carry their own, known fields their columns)', () => {
    const t = taskInputOf(raw as unknown as Trace, raw)
    // Only what no column holds: the format, id, question, candidates, gold, group and seats are not repeated.
    expect(t.raw).toEqual({ extra: { kept: true } })
    expect(Object.keys(raw)).toEqual(expect.arrayContaining(['format', 'task', 'candidates', 'moves']))
    expect(t.moves[0].raw).toEqual({ note: 'kept too' })
    expect(t.moves[1].raw).toBeNull()
  })

  it('stores exactly the engine’s tallies (docs/engine.md §2), through a tally pack, and the social top share', () => {
    const trace = raw as unknown as Trace
    const stored = talliesOf(trace)
    const seats = new SeatIndex()
    const engine = buildTallies(trace, seats, null)
    const [packed] = unpack(decodeTallyPack(encodeTallyPack([{ ...stored, taskId: trace.task, candidates: trace.candidates, group: null }]), 'test'))
    const back = toTaskTallies(packed, seats, null)
    expect(Array.from(back.counts)).toEqual(Array.from(engine.counts))
    expect(Array.from(back.vote0)).toEqual(Array.from(engine.vote0))
    expect(back.rounds).toEqual(engine.rounds)
    expect(Array.from(back.seats)).toEqual(Array.from(engine.seats))
    expect(stored.socialP1).toBeGreaterThan(0)
  })
})

describe('runImport', () => {
  it('imports traces, then skips the same tasks from another file, and publishes once each', async () => {
    const first = await runImport(store, req(EXAMPLE_TRACES), ACTOR)
    expect(first).toMatchObject({ status: 'imported', kind: 'traces', tasks: 3, moves: 15, seats: 3, skipped: 0, errorCount: 0 })
    const copy = join(dir, 'copy.jsonl')
    writeFileSync(copy, `\n${readFileSync(EXAMPLE_TRACES, 'utf8')}`) // other bytes, same tasks
    const second = await runImport(store, req(copy), ACTOR)
    expect(second).toMatchObject({ status: 'imported', tasks: 0, skipped: 3 })
    expect((await store.listImports(10)).length).toBe(2)
    expect((await store.tallyPage(null, 10)).length).toBe(3)
  })

  it('abandons an import whose file changed between the validating and the writing pass', async () => {
    const file = join(dir, 'moving.jsonl')
    writeFileSync(file, readFileSync(EXAMPLE_TRACES))
    const p = runImport(store, req(file), ACTOR, (e) => {
      if (e.phase === 'checking') appendFileSync(file, '\n')
    })
    await expect(p).rejects.toMatchObject({ code: 'conflict' })
    expect((await store.counts()).tasks).toBe(0)
    expect(await store.findImportBySha('0'.repeat(64))).toBeNull()
  })

  it('with --skip-invalid keeps the first of two lines with one task id and lists the second', async () => {
    const file = join(dir, 'dup.jsonl')
    const line = (q: string) => JSON.stringify({ task: 'x', question: q, candidates: ['a', 'b'], moves: [] })
    writeFileSync(file, `${line('first')}\n${line('second')}\n`)
    expect((await runImport(store, req(file), ACTOR)).status).toBe('rejected')
    const r = await runImport(store, req(file, { skipInvalid: true }), ACTOR)
    expect(r).toMatchObject({ status: 'imported', tasks: 1, errorCount: 1, errors: [{ line: 2, rule: 'duplicate-task', task: 'x' }] })
    expect((await store.getTaskSummary('x')).question).toBe('first')
  })

  it('stores a confidence of any JSON value and reads it back as given; refuses one past the move-text limit', async () => {
    const confidences = [0.8, 'high', null, { a: 1 }]
    const moves = confidences.map((confidence, i) => ({ id: `m${i}`, round: 0, seat: `S${i}`, force: 'propose', answer: 'x', confidence }))
    const file = join(dir, 'conf.jsonl')
    writeFileSync(file, JSON.stringify({ task: 'conf', candidates: ['x', 'y'], moves }) + '\n')
    expect(await runImport(store, req(file), ACTOR)).toMatchObject({ status: 'imported', tasks: 1, moves: 4 })
    const back = (await store.taskDetail('conf')).task.moves
    // The store keeps no difference between a null confidence and none: both read back as null.
    expect(back.map((m) => m.confidence)).toEqual([0.8, 'high', null, { a: 1 }])
    // The same bytes again are the same task (its content hash keeps every field as written).
    writeFileSync(file, '\n' + JSON.stringify({ task: 'conf', candidates: ['x', 'y'], moves }) + '\n')
    expect(await runImport(store, req(file), ACTOR)).toMatchObject({ status: 'imported', tasks: 0, skipped: 1 })

    const big = join(dir, 'big.jsonl')
    writeFileSync(big, JSON.stringify({ task: 'big', candidates: ['x', 'y'], moves: [{ ...moves[0], confidence: 'h'.repeat(MAX_MOVE_TEXT) }] }) + '\n')
    const refused = await runImport(store, req(big), ACTOR)
    expect(refused).toMatchObject({ status: 'rejected', errorCount: 1, errors: [{ line: 1, task: 'big', move: 'm0', rule: 'move-text-too-long' }] })
    expect((await store.counts()).tasks).toBe(1)
  })

  it('finds debate rounds by auto detection, as the Import screen sends an upload (a temp path, the file’s own name)', async () => {
    const csv = join(dir, 'upload-1')
    writeFileSync(csv, 'task,round,seat,answer,gold\nr-1,0,S1,a,b\nr-1,0,S2,b,b\nr-1,1,S1,b,b\n')
    const one = await runImport(store, req(csv, { fileName: 'council.rounds.csv', displayName: 'council.rounds.csv', goldAs: 'random' }), ACTOR)
    expect(one).toMatchObject({ status: 'imported', kind: 'rounds', tasks: 1, moves: 3, labels: 1, errorCount: 0 })
    const jsonl = join(dir, 'upload-2')
    writeFileSync(jsonl, [{ task: 'r-2', round: 0, seat: 'S1', answer: 'a', confidence: 'high' }, { task: 'r-2', round: 0, seat: 'S2', answer: null }].map((r) => JSON.stringify(r)).join('\n'))
    expect(await runImport(store, req(jsonl, { fileName: 'rounds.jsonl' }), ACTOR)).toMatchObject({ status: 'imported', kind: 'rounds', tasks: 1, moves: 2 })
    const moves = (await store.taskDetail('r-2')).task.moves
    expect(moves.map((m) => [m.id, m.force, m.answer, m.confidence])).toEqual([['r0-S1', 'propose', 'a', 'high'], ['r0-S2', 'abstain', null, null]])
    // A label-aggregation CSV upload is still read as one.
    const crowd = join(dir, 'upload-3')
    writeFileSync(crowd, 'task,worker,label\nc-1,w1,x\nc-1,w2,y\n')
    expect(await runImport(store, req(crowd, { fileName: 'crowd.csv' }), ACTOR)).toMatchObject({ status: 'imported', kind: 'csv', tasks: 1 })
  })

  it('reads a label file by its first line, and records gold as labels with --gold-as', async () => {
    await runImport(store, req(EXAMPLE_TRACES, { goldAs: 'escalation', displayName: 'council.trace.jsonl' }), ACTOR)
    const eff = await store.effectiveLabels()
    expect(eff.length).toBeGreaterThan(0)
    expect(new Set(eff.map((l) => `${l.source}:${l.reviewer}`))).toEqual(new Set(['escalation:import:council.trace.jsonl']))
    const file = join(dir, 'labels.jsonl')
    writeFileSync(file, '{"task":"trivia-0001","label":"Jupiter","source":"random","reviewer":"bo","at":"2026-11-30T13:00:00+01:00"}\n')
    const r = await runImport(store, req(file), ACTOR)
    expect(r).toMatchObject({ status: 'imported', kind: 'labels', labels: 1 })
    expect((await store.liveLabels('trivia-0001')).at(-1)).toMatchObject({ label: 'Jupiter', at: '2026-11-30T12:00:00.000Z' })
  })

  it('reports progress through every phase of a trace import', async () => {
    const phases = new Set<string>()
    await runImport(store, req(EXAMPLE_TRACES), ACTOR, (p) => phases.add(p.phase))
    expect([...phases]).toEqual(['checking', 'writing', 'publishing'])
  })
})

describe('runImport of a large file, written from a second thread', () => {
  const big = (n: number) =>
    Array.from({ length: n }, (_, i) => JSON.stringify({ task: `big-${i}`, question: `q ${i}`, candidates: ['a', 'b'], moves: [{ id: 'm1', round: 0, seat: `S${i % 3}`, force: 'propose', answer: 'a' }] })).join('\n')

  it('writes every task through the writer thread and publishes once', async () => {
    const file = join(dir, 'big.jsonl')
    writeFileSync(file, big(12_000))
    const target = { dbLocation: join(dir, 'a.db'), nativeBinding: null }
    const r = await runImport(store, req(file, { target }), ACTOR)
    expect(r).toMatchObject({ status: 'imported', tasks: 12_000, moves: 12_000, seats: 3 })
    expect((await store.counts()).tasks).toBe(12_000)
    expect((await store.filteredTasks({ decision: null, group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: 'q 11999' }, null, 10)).map((t) => t.taskId)).toContain('big-11999')
  }, 60_000)

  // Over 4 MiB: pass 1 validates the two halves on two threads, then merges what they found.
  const padded = (i: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ task: `big-${i}`, question: `q ${i} ${'x'.repeat(360)}`, candidates: ['a', 'b'], moves: [{ id: 'm1', round: 0, seat: `S${i % 3}`, force: 'propose', answer: 'a' }], ...extra })

  it('validates a large file in two halves and reports exactly what one pass reports', async () => {
    const n = 12_000
    const lines = Array.from({ length: n }, (_, i) => padded(i))
    lines[2] = padded(2, { seats: [{ id: 'S2', model: 'm-one' }] })
    lines[n - 5] = padded(n - 5, { seats: [{ id: 'S2', model: 'm-two' }] }) // a clash across the halves
    lines[n - 3] = padded(7) // task big-7 again, far from its first line
    lines[n - 2] = '{"task": "broken"' // malformed, in the second half
    const file = join(dir, 'big-bad.jsonl')
    writeFileSync(file, lines.join('\n'))
    expect(readFileSync(file).length).toBeGreaterThan(4 << 20)
    const split = await runImport(store, req(file, { target: { dbLocation: join(dir, 'a.db'), nativeBinding: null } }), ACTOR)
    const single = await runImport(store, req(file), ACTOR)
    expect(split.status).toBe('rejected')
    expect(split.errors.map((e) => `${e.line}:${e.rule}:${e.task}`)).toEqual([`${n - 2}:duplicate-task:big-7`, `${n - 1}:malformed-json:null`, `${n - 4}:seat-model-clash:big-${n - 5}`])
    expect(split).toEqual(single)
    expect((await store.counts()).tasks).toBe(0)
  }, 60_000)

  it('imports a large valid file split in two halves, every line once, with its line numbers', async () => {
    const n = 12_000
    const lines = Array.from({ length: n }, (_, i) => padded(i))
    lines[n - 1] = '{"task": "broken"'
    const file = join(dir, 'big-skip.jsonl')
    writeFileSync(file, lines.join('\n'))
    const r = await runImport(store, req(file, { target: { dbLocation: join(dir, 'a.db'), nativeBinding: null }, skipInvalid: true }), ACTOR)
    expect(r).toMatchObject({ status: 'imported', tasks: n - 1, errorCount: 1, errors: [{ line: n, rule: 'malformed-json' }] })
    expect((await store.getTaskSummary(`big-${n - 2}`)).question).toMatch(/^q 11998 x/)
  }, 60_000)

  it('refuses a large file that changes while its lines are written, and leaves nothing visible', async () => {
    const n = 12_000
    const lines = Array.from({ length: n }, (_, i) => padded(i))
    const file = join(dir, 'big-moving.jsonl')
    writeFileSync(file, lines.join('\n'))
    let changed = false
    const p = runImport(store, req(file, { target: { dbLocation: join(dir, 'a.db'), nativeBinding: null } }), ACTOR, (e) => {
      if (e.phase !== 'writing' || changed) return
      changed = true
      // The last line, still unread by the writing pass, becomes something pass 1 never saw.
      writeFileSync(file, [...lines.slice(0, -1), '{"task": 1}'].join('\n'))
    })
    await expect(p).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/changed while it was being imported/) })
    expect((await store.counts()).tasks).toBe(0)
  }, 60_000)

  it('fails cleanly when the writer thread cannot open the database, leaving nothing visible', async () => {
    const file = join(dir, 'big.jsonl')
    writeFileSync(file, big(10_500))
    const target = { dbLocation: join(dir, 'no-such-dir', 'a.db'), nativeBinding: null }
    await expect(runImport(store, req(file, { target }), ACTOR)).rejects.toThrow()
    expect((await store.counts()).tasks).toBe(0)
  }, 60_000)
})
