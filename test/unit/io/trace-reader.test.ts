import { describe, it, expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readTraceFile, readTraceText, TRACE_RULES, type TraceError } from '../../../src/main/io'
import { DERIVED_BYTES_PER_INPUT_BYTE, MAX_CANDIDATES, MAX_MOVE_TEXT, MAX_MOVES_PER_TASK, MAX_QUESTION_TEXT, MAX_ROUNDS_PER_TASK, MAX_SEATS_PER_TASK, MAX_TALLY_COUNTS, tallyCounts } from '../../../src/main/io/limits'
import { recordWidth } from '../../../src/main/engine/tallies'

const FIX = join(__dirname, '../../fixtures/io/invalid-trace')
const expected = JSON.parse(readFileSync(join(FIX, 'expected.json'), 'utf8')) as { rule: string; file: string; line: number; task: string | null; move: string | null }[]

const line = (o: object): string => JSON.stringify(o)
const task = (moves: object[], extra: object = {}): string => line({ task: 't', candidates: ['a', 'b', 'c'], ...extra, moves })
const P = (id: string, seat: string, answer: string, round = 0): object => ({ id, round, seat, force: 'propose', answer })
const M = (id: string, seat: string, force: string, target?: string, round = 1): object => ({ id, round, seat, force, ...(target === undefined ? {} : { target }) })
const rules = (errors: TraceError[]): string[] => errors.map((e) => e.rule)

describe('trace JSONL reader: one fixture per validity rule', () => {
  it('has a fixture for every trace rule', () => {
    expect(expected.map((e) => e.rule).sort()).toEqual([...TRACE_RULES].sort())
  })

  for (const exp of expected) {
    it(`${exp.rule}: physical line ${exp.line}, task ${exp.task}, move ${exp.move}`, async () => {
      const path = join(FIX, exp.file)
      const res = await readTraceFile(path)
      expect(res.errors).toHaveLength(1)
      expect(res.errors[0]).toMatchObject({ file: path, line: exp.line, task: exp.task, move: exp.move, rule: exp.rule })
      expect(res.errors[0].message.length).toBeGreaterThan(0)
      // The valid first line is still read: --skip-invalid keeps it.
      expect(res.traces.map((t) => t.task)).toEqual(['ok'])
      // Streaming from disk and reading from a string are the same core.
      expect(readTraceText(readFileSync(path, 'utf8'), path)).toEqual(res)
    })
  }
})

describe('trace JSONL reader: valid input', () => {
  it('reads the docs/formats.md example and keeps unknown fields in the raw object', () => {
    const ex = {
      task: 'medclaim-0001', question: 'Does X reduce Y?', candidates: ['true', 'false'], gold: 'true', group: 'MedClaim',
      seats: [{ id: 'A1', model: 'gemma-3-27b-it' }, { id: 'A2', model: 'phi-4' }, { id: 'A3' }],
      extra: { kept: [1, 2] },
      moves: [
        { id: 'm1', round: 0, seat: 'A1', force: 'propose', answer: 'true', confidence: 0.8, text: '...' },
        { id: 'm2', round: 0, seat: 'A2', force: 'propose', answer: 'false', text: '...', note: 'kept' },
        { id: 'm3', round: 0, seat: 'A3', force: 'propose', answer: 'true' },
        { id: 'm4', round: 1, seat: 'A2', force: 'challenge', target: 'm1', answer: 'not-a-candidate' },
        { id: 'm5', round: 1, seat: 'A3', force: 'concede', target: 'm1' }
      ]
    }
    const res = readTraceText(line({ format: 'arbiter.trace/1', ...ex }) + '\n', 'x.jsonl')
    expect(res.errors).toEqual([])
    const t = res.traces[0]
    expect(t).toMatchObject({ task: 'medclaim-0001', candidates: ['true', 'false'], gold: 'true', group: 'MedClaim', question: 'Does X reduce Y?' })
    expect(t.seats).toEqual([{ id: 'A1', model: 'gemma-3-27b-it' }, { id: 'A2', model: 'phi-4' }, { id: 'A3' }])
    expect(t.moves[0]).toEqual({ id: 'm1', round: 0, seat: 'A1', force: 'propose', answer: 'true', confidence: 0.8, text: '...' })
    // An answer on a challenge is ignored by the engine (docs/engine.md §1): not typed, but round-tripped.
    expect(t.moves[3]).toEqual({ id: 'm4', round: 1, seat: 'A2', force: 'challenge', target: 'm1' })
    expect(res.raws[0]).toEqual({ format: 'arbiter.trace/1', ...ex })
  })

  it('accepts gold null or absent, empty moves, a seat missing from seats, and round 1.0', () => {
    const text = [
      line({ task: 'a', candidates: ['x', 'y'], gold: null, moves: [] }),
      line({ task: 'b', candidates: ['x', 'y'], seats: [{ id: 'S1' }], moves: [P('m1', 'S9', 'x')] }),
      '{"task":"c","candidates":["x","y"],"moves":[{"id":"m1","round":1.0,"seat":"S","force":"abstain"}]}'
    ].join('\n')
    const res = readTraceText(text, 'f')
    expect(res.errors).toEqual([])
    expect(res.traces.map((t) => t.gold)).toEqual([null, undefined, undefined])
    expect(res.traces[2].moves[0].round).toBe(1)
  })

  it('counts blank and whitespace-only lines, handles CRLF, a BOM and no final newline', () => {
    const text = '\uFEFF' + line({ task: 'a', candidates: ['x', 'y'], moves: [] }) + '\r\n  \r\n\r\n' + '{"task":'
    const res = readTraceText(text, 'f')
    expect(res.traces).toHaveLength(1)
    expect(res.errors).toMatchObject([{ line: 4, rule: 'malformed-json', task: null }])
  })

  it('keeps the first of two lines with the same task id', () => {
    const a = line({ task: 'a', candidates: ['x', 'y'], moves: [], n: 1 })
    const res = readTraceText([a, a.replace('"n":1', '"n":2')].join('\n'), 'f')
    expect(res.raws).toEqual([{ task: 'a', candidates: ['x', 'y'], moves: [], n: 1 }])
    expect(res.errors).toMatchObject([{ line: 2, rule: 'duplicate-task', task: 'a' }])
  })
})

describe('trace JSONL reader: field rules', () => {
  it('reports every broken rule of a line, each with its move', () => {
    const res = readTraceText(task([P('m1', 'A', 'z'), { id: 'm2', round: -1, seat: 'B', force: 'vote', answer: 'a' }, { id: 3, round: '0', force: 'propose', answer: 'a' }]), 'f')
    expect(res.traces).toEqual([])
    expect(res.errors.map((e) => [e.rule, e.move])).toEqual([
      ['answer-not-candidate', 'm1'],
      ['bad-round', 'm2'],
      ['wrong-type', null],
      ['missing-field', null],
      ['wrong-type', null]
    ])
  })

  it('checks the types of the optional fields it types', () => {
    const res = readTraceText(task([{ ...P('m1', 'A', 'a'), text: 1 }], { question: 1, group: [], seats: [{ model: 'x' }] }), 'f')
    expect(rules(res.errors)).toEqual(['wrong-type', 'wrong-type', 'missing-field', 'wrong-type'])
  })

  it('keeps a confidence of any JSON value as given (docs/engine.md §1), and absent when absent', () => {
    const values = [0.8, 'high', null, { a: 1 }, [1, 'x'], true]
    const res = readTraceText(task([...values.map((confidence, i) => ({ ...P(`m${i}`, `S${i}`, 'a'), confidence })), P('m9', 'S9', 'b')]), 'f')
    expect(res.errors).toEqual([])
    expect(res.traces[0].moves.map((m) => m.confidence)).toEqual([...values, undefined])
    expect('confidence' in res.traces[0].moves[values.length]).toBe(false)
  })

  it('counts a confidence, as JSON, toward the limit of a move\'s text (move-text-too-long)', () => {
    const at = (text: string, confidence: unknown) => readTraceText(task([{ ...P('m1', 'A', 'a'), text, confidence }]), 'f').errors
    const half = 'x'.repeat(MAX_MOVE_TEXT / 2)
    // {"k":"…"} adds 8 characters to the string it holds.
    expect(at(half, { k: 'x'.repeat(MAX_MOVE_TEXT / 2 - 8) })).toEqual([])
    const over = at(half, { k: 'x'.repeat(MAX_MOVE_TEXT / 2 - 7) })
    expect(over).toMatchObject([{ file: 'f', line: 1, task: 't', move: 'm1', rule: 'move-text-too-long' }])
    expect(over[0].message).toContain('1,048,577 characters')
    expect(rules(at('', 'h'.repeat(MAX_MOVE_TEXT)))).toEqual(['move-text-too-long']) // "…" quotes count
    expect(rules(at('x'.repeat(MAX_MOVE_TEXT + 1), undefined))).toEqual(['move-text-too-long'])
    // A number counts as its JSON too: "0.8" fills the text to the limit, "0.85" goes one past.
    expect(at('x'.repeat(MAX_MOVE_TEXT - 3), 0.8)).toEqual([])
    expect(rules(at('x'.repeat(MAX_MOVE_TEXT - 3), 0.85))).toEqual(['move-text-too-long'])
    expect(rules(at('x'.repeat(MAX_MOVE_TEXT - 3), 'ab'))).toEqual(['move-text-too-long'])
    expect(at('x'.repeat(MAX_MOVE_TEXT - 4), 'ab')).toEqual([])
  })

  it('rejects moves that are not an array, a non-string gold, and a non-string candidate', () => {
    expect(rules(readTraceText(line({ task: 't', candidates: ['a', 'b'], moves: {} }), 'f').errors)).toEqual(['wrong-type'])
    expect(rules(readTraceText(line({ task: 't', candidates: ['a', 'b'], gold: 1, moves: [] }), 'f').errors)).toEqual(['wrong-type'])
    expect(rules(readTraceText(line({ task: 't', candidates: ['a', 2], moves: [] }), 'f').errors)).toEqual(['wrong-type'])
    expect(rules(readTraceText(line({ task: 1, candidates: ['a', 'b'], moves: [] }), 'f').errors)).toEqual(['wrong-type'])
  })

  it('reports round-decreasing once per descent, against the previous move', () => {
    const res = readTraceText(task([P('m1', 'A', 'a', 0), P('m2', 'B', 'a', 2), P('m3', 'C', 'a', 1), P('m4', 'D', 'a', 1)]), 'f')
    expect(res.errors.map((e) => [e.rule, e.move])).toEqual([['round-decreasing', 'm3']])
  })

  it('a target that is the move itself is not strictly earlier', () => {
    expect(rules(readTraceText(task([M('m1', 'A', 'challenge', 'm1', 0)]), 'f').errors)).toEqual(['target-not-earlier'])
  })
})

describe('trace JSONL reader: targets carrying no endorsement (docs/engine.md §2)', () => {
  const errorsOf = (moves: object[]): [string, string | null][] => readTraceText(task(moves), 'f').errors.map((e) => [e.rule, e.move])

  it('a concede to one\'s own move carries none', () => {
    expect(errorsOf([P('m1', 'A', 'a'), M('m2', 'A', 'concede', 'm1'), M('m3', 'B', 'challenge', 'm2')])).toEqual([['target-no-endorsement', 'm3']])
  })

  it('an abstain carries none, for a concede too', () => {
    expect(errorsOf([M('m1', 'A', 'abstain', undefined, 0), M('m2', 'B', 'concede', 'm1')])).toEqual([['target-no-endorsement', 'm2']])
  })

  it('a retract with no prior +1 by its seat carries none', () => {
    expect(errorsOf([P('m1', 'A', 'a'), M('m2', 'B', 'retract'), M('m3', 'A', 'challenge', 'm2')])).toEqual([['target-no-endorsement', 'm3']])
  })

  it('a retract after a +1 of its seat carries one, and a retract does not reset it', () => {
    expect(errorsOf([P('m1', 'A', 'a'), M('m2', 'A', 'retract'), M('m3', 'A', 'retract'), M('m4', 'B', 'challenge', 'm3')])).toEqual([])
  })

  it('a concede to a move of another seat that carries none, carries none', () => {
    // m2 concedes to its own seat (none); m3 conceding to m2 is the error; m4 conceding to m3 is not
    // reported again: m3 is invalid, so what it carries is unknown (one error, not a cascade).
    expect(errorsOf([P('m1', 'A', 'a'), M('m2', 'A', 'concede', 'm1'), M('m3', 'B', 'concede', 'm2'), M('m4', 'C', 'concede', 'm3')])).toEqual([
      ['target-no-endorsement', 'm3']
    ])
  })

  it('signs propagate through chains: a challenge of a challenge is a +1 its seat may retract', () => {
    // m2 = (−1, a); m3 concedes it = (−1, a); m4 challenges m3 = (+1, a) for D; D's retract m5 = (−1, a).
    expect(errorsOf([P('m1', 'A', 'a'), M('m2', 'B', 'challenge', 'm1'), M('m3', 'C', 'concede', 'm2'), M('m4', 'D', 'challenge', 'm3'), M('m5', 'D', 'retract', undefined, 2), M('m6', 'A', 'concede', 'm5', 2)])).toEqual([])
  })

  it('a retract whose seat only ever endorsed −1 carries none', () => {
    expect(errorsOf([P('m1', 'A', 'a'), M('m2', 'B', 'challenge', 'm1'), M('m3', 'B', 'retract'), M('m4', 'A', 'challenge', 'm3')])).toEqual([['target-no-endorsement', 'm4']])
  })

  it('an invalid move is one error: later moves that depend on it are not reported', () => {
    expect(errorsOf([P('m1', 'A', 'zzz'), M('m2', 'B', 'challenge', 'm1'), M('m3', 'A', 'retract'), M('m4', 'B', 'concede', 'm3')])).toEqual([['answer-not-candidate', 'm1']])
  })
})

describe('trace JSONL reader: the size of a task\'s tallies (R·S·(2K+2), docs/engine.md §2)', () => {
  const cands = (k: number): string[] => Array.from({ length: k }, (_, i) => `c${i}`)
  const moves = (n: number, seat: (i: number) => string, round: (i: number) => number): object[] =>
    Array.from({ length: n }, (_, i) => ({ id: `m${i}`, round: round(i), seat: seat(i), force: 'propose', answer: 'c0' }))
  const read = (k: number, ms: object[]) => readTraceText(line({ task: 't', candidates: cands(k), moves: ms }), 'f')

  it('accepts the limits themselves: 128 seats, 128 rounds, and tallies of exactly the maximum (on a line long enough to pay for them)', () => {
    expect(read(2, moves(MAX_SEATS_PER_TASK, (i) => `s${i}`, () => 0)).errors).toEqual([])
    expect(read(2, moves(MAX_ROUNDS_PER_TASK, () => 'A', (i) => i)).errors).toEqual([])
    // 128 × 128 × (2·31 + 2) = 1,048,576 counts: 8 MB stored, so the line must hold 8 MB / 32 of text.
    expect(tallyCounts(128, 128, 31)).toBe(MAX_TALLY_COUNTS)
    for (const [r, s, k] of [[1, 1, 2], [3, 5, 7], [128, 128, 256]]) expect(tallyCounts(r, s, k)).toBe(r * s * recordWidth(k))
    const text = 'x'.repeat(Math.ceil((8 * (MAX_TALLY_COUNTS + 128)) / DERIVED_BYTES_PER_INPUT_BYTE))
    expect(readTraceText(line({ task: 't', candidates: cands(31), question: text, moves: moves(128, (i) => `s${i}`, (i) => i) }), 'f').errors).toEqual([])
  })

  it('counts distinct seats and rounds, not moves', () => {
    expect(read(2, moves(1000, (i) => `s${i % 128}`, (i) => Math.floor(i / 8))).errors).toEqual([])
  })

  it('one error per task past a limit, on the move that passes it, naming the count and the limit', () => {
    const res = read(2, moves(2000, (i) => `s${i}`, (i) => i))
    expect(res.traces).toEqual([])
    expect(res.errors.map((e) => [e.rule, e.move])).toEqual([['too-many-seats', 'm128'], ['too-many-rounds', 'm128']])
    expect(res.errors[0].message).toContain('2,000 distinct seats')
    expect(res.errors[0].message).toContain(`at most ${MAX_SEATS_PER_TASK}`)
    expect(res.errors[1].message).toContain('2,000 distinct rounds')
  })

  it('tallies-too-large names R, S, K, the product and the limit', () => {
    const res = read(32, moves(128, (i) => `s${i}`, (i) => i))
    expect(res.errors).toMatchObject([{ rule: 'tallies-too-large', task: 't', move: null }])
    expect(res.errors[0].message).toMatch(/128 rounds × 128 seats × 66 .*K = 32.* = 1,081,344 counts; at most 1,048,576/)
    // Past MAX_CANDIDATES, the candidate count is the fault, before any tally is counted.
    expect(read(MAX_CANDIDATES + 1, moves(1, () => 'A', () => 0)).errors.map((e) => e.rule)).toEqual(['too-many-candidates'])
    expect(read(MAX_CANDIDATES, moves(1, () => 'A', () => 0)).errors).toEqual([])
  })
})

describe('trace JSONL reader: the limits a user can see (docs/formats.md, "Limits"), at and one past each', () => {
  const cands = (k: number): string[] => Array.from({ length: k }, (_, i) => `c${i}`)
  const one = [{ id: 'm1', round: 0, seat: 'A', force: 'propose', answer: 'c0' }]
  const read = (o: object) => readTraceText(line({ task: 't', candidates: cands(2), moves: one, ...o }), 'f')
  const rulesOf = (o: object) => read(o).errors.map((e) => [e.rule, e.task, e.move])

  it('question-too-long', () => {
    expect(rulesOf({ question: 'q'.repeat(MAX_QUESTION_TEXT) })).toEqual([])
    expect(rulesOf({ question: 'q'.repeat(MAX_QUESTION_TEXT + 1) })).toEqual([['question-too-long', 't', null]])
    expect(read({ question: 'q'.repeat(MAX_QUESTION_TEXT + 1) }).errors[0].message).toContain('1,048,577 characters; at most 1,048,576')
  })

  it('too-many-candidates', () => {
    expect(rulesOf({ candidates: cands(MAX_CANDIDATES) })).toEqual([])
    expect(rulesOf({ candidates: cands(MAX_CANDIDATES + 1) })).toEqual([['too-many-candidates', 't', null]])
  })

  it('too-many-moves: one error for the task, not one per move', () => {
    const abstains = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `m${i}`, round: Math.floor(i / 128), seat: `s${i % 128}`, force: 'abstain' }))
    expect(rulesOf({ moves: abstains(MAX_MOVES_PER_TASK) })).toEqual([])
    expect(rulesOf({ moves: abstains(MAX_MOVES_PER_TASK + 1) })).toEqual([['too-many-moves', 't', null]])
  })

  it('task-too-large: tallies and candidates past 32 bytes per byte of the line, naming both sides', () => {
    const diagonal = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `m${i}`, round: i, seat: `s${i}`, force: 'abstain' }))
    const res = read({ candidates: cands(31), moves: diagonal(128) })
    expect(res.errors.map((e) => [e.rule, e.task, e.move])).toEqual([['task-too-large', 't', null]])
    expect(res.errors[0].message).toMatch(/store 8,390,\d{3} bytes beyond its input .* 128 × 128 × 64 = 1,048,576 counts.* for the [\d,]+ bytes of its line; at most 32 per byte/)
    // The same task on a line long enough to pay for its tallies is accepted; the real councils' tasks are far inside.
    const pad = 'x'.repeat(Math.ceil((8 * (MAX_TALLY_COUNTS + 128) + 3 * 200) / DERIVED_BYTES_PER_INPUT_BYTE))
    expect(rulesOf({ candidates: cands(31), moves: diagonal(128), question: pad })).toEqual([])
    // UTF-8 bytes, not UTF-16 units, are the line's size: a line of "é" is worth twice as many.
    const counted = (q: string) => rulesOf({ candidates: cands(31), moves: diagonal(16), question: q })
    const need = Math.ceil((8 * (16 * 16 * 64 + 16)) / DERIVED_BYTES_PER_INPUT_BYTE)
    expect(counted('x'.repeat(Math.ceil(need / 2)))).toEqual([['task-too-large', 't', null]])
    expect(counted('é'.repeat(Math.ceil(need / 2)))).toEqual([])
  })
})
