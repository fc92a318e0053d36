import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DEFAULT_DIALECT, formatReadError, isRoundsFile, MAX_MOVE_TEXT, readRoundsFile, readRoundsText, readTraceOrCsv, ROUNDS_RULES, type CsvDialect
} from '../../../src/main/io'

const FIX = join(__dirname, '../../fixtures/io/invalid-rounds')
const expected = JSON.parse(readFileSync(join(FIX, 'expected.json'), 'utf8')) as {
  rule: string; file: string; line: number; task: string | null; move: string | null; fatal?: boolean
}[]
const read = (text: string, file = 'r.csv', dialect: Partial<CsvDialect> = {}) => readRoundsText({ text, file }, { ...DEFAULT_DIALECT, ...dialect })
const jsonl = (...rows: object[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-rounds-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('debate rounds reader: one fixture per rule', () => {
  it('has a fixture for every rule of the form', () => {
    for (const rule of ROUNDS_RULES) expect(expected.map((e) => e.rule)).toContain(rule)
  })

  for (const exp of expected) {
    it(`${exp.rule}: ${exp.file} line ${exp.line}, task ${exp.task}, move ${exp.move}`, async () => {
      const path = join(FIX, exp.file)
      expect(await isRoundsFile(path, DEFAULT_DIALECT)).toBe(true)
      const res = await readRoundsFile(path, DEFAULT_DIALECT)
      expect(res.errors).toHaveLength(1)
      expect(res.errors[0]).toMatchObject({ file: path, line: exp.line, task: exp.task, move: exp.move, rule: exp.rule })
      const shown = formatReadError(res.errors[0])
      expect(shown).toContain(`${path}:${exp.line}: `)
      expect(shown).toContain(` ${exp.rule} — `)
      if (exp.task !== null) expect(shown).toContain(`task ${exp.task}`)
      // The bad task is left out whole; the valid one stays (what --skip-invalid imports) unless the
      // file could not be read as rows at all.
      expect(res.fatal).toBe(exp.fatal === true)
      expect(res.traces.map((t) => t.task)).toEqual(exp.fatal === true ? [] : ['ok'])
    })
  }
})

describe('debate rounds reader: rows to traces', () => {
  const header = 'task,round,seat,model,answer,gold,group,question,text,confidence'

  it('takes a task’s rows from anywhere in the file in (round, line) order, and maps answers to moves', () => {
    const res = read(
      [
        header,
        't1,1,A,m1,x,y,G,Q?,"changes, to x",',
        't2,0,A,m1,p,,,,,',
        't1,0,A,m1,y,y,G,Q?,first,0.9',
        't1,0,B,m2,,y,G,Q?,no answer,',
        't1,1,B,m2,y,y,G,Q?,,high',
        't1,2,A,m1,x,y,G,Q?,keeps x,',
        't1,2,B,m2,y,y,G,Q?,keeps y,'
      ].join('\n')
    )
    expect(res.errors).toEqual([])
    expect(res.lines).toEqual([2, 3])
    const [t1, t2] = res.traces
    expect(t1).toEqual({
      task: 't1', question: 'Q?', candidates: ['y', 'x'], gold: 'y', group: 'G',
      seats: [{ id: 'A', model: 'm1' }, { id: 'B', model: 'm2' }],
      moves: [
        { id: 'r0-A', round: 0, seat: 'A', force: 'propose', answer: 'y', confidence: '0.9', text: 'first' },
        { id: 'r0-B', round: 0, seat: 'B', force: 'abstain', text: 'no answer' },
        { id: 'r1-A', round: 1, seat: 'A', force: 'propose', answer: 'x', text: 'changes, to x' },
        // B's first answer: a propose (no earlier answer of its own), its confidence cell kept as text.
        { id: 'r1-B', round: 1, seat: 'B', force: 'propose', answer: 'y', confidence: 'high', text: '' },
        { id: 'r2-A', round: 2, seat: 'A', force: 'vote', answer: 'x', text: 'keeps x' },
        { id: 'r2-B', round: 2, seat: 'B', force: 'vote', answer: 'y', text: 'keeps y' }
      ]
    })
    // Empty gold on every row = unlabeled; one answer and no gold: `other` makes the second candidate.
    expect(t2).toMatchObject({ task: 't2', candidates: ['p', 'other'], gold: null })
    expect(t2).not.toHaveProperty('question')
    expect(t2).not.toHaveProperty('group')
    expect(res.raws[0]).toMatchObject({ format: 'arbiter.trace/1', task: 't1' })
  })

  it('a vote repeats the seat’s latest non-empty answer, across an abstaining round', () => {
    const res = read(['task,round,seat,answer', 't,0,A,x', 't,1,A,', 't,2,A,x', 't,3,A,y', 't,4,A,x'].join('\n'))
    expect(res.traces[0].moves.map((m) => m.force)).toEqual(['propose', 'abstain', 'vote', 'propose', 'propose'])
  })

  it('derives candidates: answers in (round, line) order, then gold if absent, then other while fewer than two', () => {
    const cands = (rows: string[], head = 'task,round,seat,answer,gold') => read([head, ...rows].join('\n')).traces[0]?.candidates
    expect(cands(['t,1,A,b,g', 't,0,B,c,g', 't,0,A,a,g'])).toEqual(['c', 'a', 'b', 'g'])
    expect(cands(['t,0,A,a,a', 't,0,B,b,a'])).toEqual(['a', 'b'])
    expect(cands(['t,0,A,,g'])).toEqual(['g', 'other'])
    expect(cands(['t,0,A,a,'])).toEqual(['a', 'other'])
    expect(cands(['t,0,A,a'], 'task,round,seat,answer')).toEqual(['a', 'other'])
  })

  it('splits the candidates column on |, in its order, and checks answers against it', () => {
    const res = read(['task,round,seat,answer,candidates', 't,0,A,b,c|b|a', 't,0,B,,c|b|a'].join('\n'))
    expect(res.errors).toEqual([])
    expect(res.traces[0].candidates).toEqual(['c', 'b', 'a'])
  })

  it('refuses a candidates column that changes within a task, and a model that changes for a seat', () => {
    const bad = read(['task,round,seat,answer,candidates,model', 't,0,A,a,a|b,m', 't,1,A,a,a|b|c,m', 't,2,A,a,a|b,n'].join('\n'))
    expect(bad.errors.map((e) => [e.rule, e.line, e.task])).toEqual([
      ['inconsistent-task', 2, 't'],
      ['inconsistent-task', 2, 't']
    ])
    expect(bad.errors[0].message).toContain('"candidates"')
    expect(bad.errors[1].message).toContain('seat A')
    expect(bad.traces).toEqual([])
    for (const f of ['question', 'group']) {
      const res = read([`task,round,seat,answer,${f}`, 't,0,A,a,one', 't,0,B,a,two'].join('\n'))
      expect(res.errors.map((e) => [e.rule, e.line])).toEqual([['inconsistent-task', 2]])
      expect(res.errors[0].message).toContain(`"${f}"`)
    }
  })

  it('reads TSV by its name, and JSONL rows with any JSON confidence, null answers and candidate arrays', () => {
    const tsv = read(['task\tround\tseat\tanswer\tconfidence', 't\t0\tA\ta, with a comma\t', 't\t0\tB\t\t'].join('\n'), 'r.tsv')
    expect(tsv.errors).toEqual([])
    expect(tsv.traces[0].candidates).toEqual(['a, with a comma', 'other'])
    const j = read(
      jsonl(
        { task: 't', round: 0, seat: 'A', answer: 'a', confidence: { p: 0.7 }, candidates: ['a', 'b'] },
        { task: 't', round: 0, seat: 'B', answer: null, confidence: null, candidates: ['a', 'b'] },
        { task: 't', round: 1, seat: 'B', answer: 'b', confidence: 'high', candidates: ['a', 'b'], extra: 'ignored' }
      ),
      'r.jsonl'
    )
    expect(j.errors).toEqual([])
    expect(j.traces[0].moves).toEqual([
      { id: 'r0-A', round: 0, seat: 'A', force: 'propose', answer: 'a', confidence: { p: 0.7 } },
      { id: 'r0-B', round: 0, seat: 'B', force: 'abstain', confidence: null },
      { id: 'r1-B', round: 1, seat: 'B', force: 'propose', answer: 'b', confidence: 'high' }
    ])
  })

  it('refuses a header without a required column, or naming one twice, as the whole file', () => {
    const missing = read('task,round,seat,model\nt,0,A,a\n')
    expect(missing.errors).toMatchObject([{ line: 1, task: null, rule: 'missing-field' }])
    expect(missing.fatal).toBe(true)
    const twice = read('task,round,seat,answer,answer\nt,0,A,a,b\n')
    expect(twice.errors).toMatchObject([{ line: 1, rule: 'extra-column' }])
    expect(twice.traces).toEqual([])
  })

  it('holds the trace limits: ids, and a move’s text with its confidence (move-text-too-long)', () => {
    const long = 's'.repeat(600)
    const ids = read(`task,round,seat,answer\nt,0,${long},a\n`)
    expect(ids.errors).toMatchObject([{ line: 2, task: 't', rule: 'wrong-type' }])
    const text = read(jsonl({ task: 'ok', round: 0, seat: 'A', answer: 'a' }, { task: 't', round: 0, seat: 'A', answer: 'a', text: 'x'.repeat(MAX_MOVE_TEXT - 5), confidence: 'high' }), 'r.jsonl')
    expect(text.errors).toMatchObject([{ line: 2, task: 't', move: 'r0-A', rule: 'move-text-too-long' }])
    expect(text.traces.map((t) => t.task)).toEqual(['ok'])
  })
})

describe('debate rounds: the example file (resources/examples/council.rounds.csv)', () => {
  it('reads as the README shows it: rows out of order, derived candidates, vote / propose / abstain, confidence as text', async () => {
    const res = await readTraceOrCsv(join(__dirname, '../../../resources/examples/council.rounds.csv'), DEFAULT_DIALECT)
    expect(res.errors).toEqual([])
    expect(res.traces.map((t) => [t.task, t.candidates, t.gold])).toEqual([
      ['medclaim-0003', ['true', 'false'], 'true'],
      ['trivia-0002', ['Ganymede', 'Titan'], null],
      ['medclaim-0004', ['true', 'false'], 'false']
    ])
    expect(res.traces[2].moves.map((m) => [m.id, m.force, m.answer, m.confidence])).toEqual([
      ['r0-A1', 'propose', 'false', '0.9'],
      ['r0-A2', 'abstain', undefined, undefined],
      ['r0-A3', 'propose', 'true', '0.6'],
      ['r1-A1', 'vote', 'false', '0.9'],
      ['r1-A2', 'propose', 'false', '0.7'],
      ['r1-A3', 'propose', 'false', '0.5']
    ])
    expect(res.traces[1].moves.map((m) => m.id)).toEqual(['r0-A1', 'r0-A2', 'r0-A3', 'r1-A2'])
  })
})

describe('debate rounds: detection', () => {
  const file = (name: string, text: string): string => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }

  it('knows the form by a CSV/TSV header or a first JSONL object naming round, seat and answer and no moves', async () => {
    expect(await isRoundsFile(file('a.csv', '\uFEFFtask,round,seat,answer\r\nt,0,A,x\r\n'), DEFAULT_DIALECT)).toBe(true)
    expect(await isRoundsFile(file('a.tsv', 'seat\tanswer\tround\ttask\n'), DEFAULT_DIALECT)).toBe(true)
    expect(await isRoundsFile(file('a.jsonl', '\n{"task":"t","round":0,"seat":"A","answer":"x"}\n'), DEFAULT_DIALECT)).toBe(true)
    expect(await isRoundsFile(file('b.csv', 'task,worker,label\nt,w,x\n'), DEFAULT_DIALECT)).toBe(false)
    expect(await isRoundsFile(file('c.csv', 'task,round,seat,answer,moves\n'), DEFAULT_DIALECT)).toBe(false)
    expect(await isRoundsFile(file('b.jsonl', '{"task":"t","round":0,"seat":"A","answer":"x","moves":[]}\n'), DEFAULT_DIALECT)).toBe(false)
    expect(await isRoundsFile(file('c.jsonl', '{"task":'), DEFAULT_DIALECT)).toBe(false)
    expect(await isRoundsFile(file('e.csv', ''), DEFAULT_DIALECT)).toBe(false)
    expect(await isRoundsFile(file('e.jsonl', '\n  \r\n'), DEFAULT_DIALECT)).toBe(false)
    // A first row far longer than one read (its text), after blank lines and without a final newline.
    const long = JSON.stringify({ task: 't', round: 0, seat: 'A', answer: 'x', text: 'é'.repeat(200_000) })
    expect(await isRoundsFile(file('long.jsonl', `\r\n\n${long}`), DEFAULT_DIALECT)).toBe(true)
    expect(await isRoundsFile(file('long2.jsonl', `${long}\n${long}\n`), DEFAULT_DIALECT)).toBe(true)
  })

  it('readTraceOrCsv reads the form from CSV, TSV and JSONL; label-aggregation CSV and trace JSONL as before', async () => {
    const want = { task: 't', candidates: ['x', 'y'], moves: [{ id: 'r0-A', round: 0, seat: 'A', force: 'propose', answer: 'x' }, { id: 'r1-A', round: 1, seat: 'A', force: 'propose', answer: 'y' }] }
    for (const [name, text] of [
      ['r.csv', 'task,round,seat,answer\nt,0,A,x\nt,1,A,y\n'],
      ['r.tsv', 'task\tround\tseat\tanswer\nt\t0\tA\tx\nt\t1\tA\ty\n'],
      ['r.jsonl', jsonl({ task: 't', round: 0, seat: 'A', answer: 'x' }, { task: 't', round: 1, seat: 'A', answer: 'y' })]
    ]) {
      const res = await readTraceOrCsv(file(name, text), DEFAULT_DIALECT)
      expect(res.errors).toEqual([])
      expect(res.traces).toEqual([want])
    }
    const crowd = await readTraceOrCsv(file('crowd.csv', 'task,worker,label\nt,w1,x\nt,w2,y\n'), DEFAULT_DIALECT)
    expect(crowd.traces).toEqual([{ task: 't', candidates: ['x', 'y'], gold: null, moves: [{ id: 'r2', round: 0, seat: 'w1', force: 'propose', answer: 'x' }, { id: 'r3', round: 0, seat: 'w2', force: 'propose', answer: 'y' }] }])
    const trace = await readTraceOrCsv(file('t.jsonl', JSON.stringify(want) + '\n'), DEFAULT_DIALECT)
    expect(trace.traces).toEqual([want])
  })
})
