import { describe, it, expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CSV_RULES, DEFAULT_DIALECT, parseColumns, parseDelimiter, readLabelCsvFile, readLabelCsvText, readTraceOrCsv, type CsvDialect } from '../../../src/main/io'
import { MAX_CANDIDATES } from '../../../src/main/io/limits'

const FIX = join(__dirname, '../../fixtures/io/invalid-csv')
const expected = JSON.parse(readFileSync(join(FIX, 'expected.json'), 'utf8')) as {
  rule: string; file: string; gold?: string; errorFile?: 'gold'; line: number; task: string | null; move: string | null
}[]
const read = (text: string, dialect: Partial<CsvDialect> = {}, gold?: string) =>
  readLabelCsvText({ text, file: 'a.csv' }, { ...DEFAULT_DIALECT, ...dialect }, gold === undefined ? undefined : { text: gold, file: 'g.csv' })

describe('label CSV reader: one fixture per rule', () => {
  it('has a fixture for every CSV rule', () => {
    expect(expected.map((e) => e.rule).sort()).toEqual([...CSV_RULES].sort())
  })

  for (const exp of expected) {
    it(`${exp.rule}: line ${exp.line}`, async () => {
      const gold = exp.gold === undefined ? undefined : join(FIX, exp.gold)
      const res = await readLabelCsvFile(join(FIX, exp.file), { ...DEFAULT_DIALECT, gold })
      expect(res.errors).toHaveLength(1)
      const file = exp.errorFile === 'gold' ? gold : join(FIX, exp.file)
      expect(res.errors[0]).toMatchObject({ file, line: exp.line, task: exp.task, move: exp.move, rule: exp.rule })
    })
  }
})

describe('label CSV reader: rows to traces', () => {
  it('makes one round-0 propose per row, ids from physical lines, shared candidates in first-appearance order', () => {
    const res = read('task,worker,label\nt1,w1,no\n\nt2,w1,yes\nt1,w2,yes\nt1,w2,yes\n')
    expect(res.errors).toEqual([])
    expect(res.traces).toEqual([
      { task: 't1', candidates: ['no', 'yes'], gold: null, moves: [
        { id: 'r2', round: 0, seat: 'w1', force: 'propose', answer: 'no' },
        { id: 'r5', round: 0, seat: 'w2', force: 'propose', answer: 'yes' },
        // An exact duplicate row is kept: one more propose, in file order (docs/formats.md).
        { id: 'r6', round: 0, seat: 'w2', force: 'propose', answer: 'yes' }
      ] },
      { task: 't2', candidates: ['no', 'yes'], gold: null, moves: [{ id: 'r4', round: 0, seat: 'w1', force: 'propose', answer: 'yes' }] }
    ])
    expect(res.raws[0]).toMatchObject({ format: 'arbiter.trace/1', task: 't1' })
  })

  it('follows --columns, --delimiter and --no-header, for the gold file too', () => {
    const res = read('w1\tt1\tG\r\nw2\tt1\tX\r\nw1\tt2\tX', { columns: ['worker', 'task', 'label'], delimiter: 'tab', header: false }, 't2\tX\nt9\tG\n')
    expect(res.errors).toEqual([])
    expect(res.traces.map((t) => [t.task, t.gold, t.moves.map((m) => m.seat)])).toEqual([['t1', null, ['w1', 'w2']], ['t2', 'X', ['w1']]])
    expect(res.goldIgnored).toBe(1)
  })

  it('puts gold in the order columns give task and label', () => {
    const res = read('yes,t1,w1\nno,t1,w2\n', { columns: ['label', 'task', 'worker'], header: false }, 'no,t1\n')
    expect(res.traces[0].gold).toBe('no')
  })

  it('space splits on runs of spaces and tabs', () => {
    const res = read('1  1\t2\n 1 2 1 \n', { delimiter: 'space', header: false })
    expect(res.errors).toEqual([])
    expect(res.traces[0].moves.map((m) => [m.seat, m.answer])).toEqual([['1', '2'], ['2', '1']])
  })

  it('reads RFC 4180 quoted fields: delimiters, doubled quotes and newlines inside quotes', () => {
    const res = read('task,worker,label\n"t,1",w1,"say ""yes"""\n"t,1","w\n2",no\nt2,w1,a"b\n')
    expect(res.errors).toEqual([])
    expect(res.traces[0].candidates).toEqual(['say "yes"', 'no', 'a"b'])
    // The record spanning lines 3–4 is numbered by its first line; the next record is on line 5.
    expect(res.traces.map((t) => t.moves.map((m) => [m.id, m.seat]))).toEqual([[['r2', 'w1'], ['r3', 'w\n2']], [['r5', 'w1']]])
  })

  it('reports text after a closing quote', () => {
    expect(read('task,worker,label\n"t1"x,w1,a\nt1,w2,b\nt1,w3,c\n').errors).toMatchObject([{ rule: 'bad-quote', line: 2 }])
  })

  it('reports every bad row and keeps the good ones (for --skip-invalid)', () => {
    const res = read('task,worker,label\nt1,w1,a\nt1,w2\nt1,,b\nt2,w1,b,c\nt2,w2,b\n')
    expect(res.errors.map((e) => [e.line, e.rule, e.task])).toEqual([[3, 'missing-column', 't1'], [4, 'empty-field', 't1'], [5, 'extra-column', 't2']])
    expect(res.traces.map((t) => [t.task, t.moves.length])).toEqual([['t1', 1], ['t2', 1]])
  })

  it('accepts repeated identical gold rows and ignores gold of absent tasks, counting them', () => {
    const res = read('t1,w1,a\nt2,w1,b\n', { header: false }, 't1,a\nt1,a\nt3,zzz\nt4,a\n')
    expect(res.errors).toEqual([])
    expect(res.traces.map((t) => t.gold)).toEqual(['a', null])
    expect(res.goldIgnored).toBe(2)
  })

  it(`accepts ${MAX_CANDIDATES} distinct labels; one more refuses the file, naming the count, the limit and the line`, () => {
    // One task: every label is a candidate of every task, so a task needs rows enough to pay for
    // its 256 candidates (task-too-large, tested below).
    const rows = (n: number): string => `task,worker,label\n${Array.from({ length: n }, (_, i) => `t0,w${i % 3},l${i}`).join('\n')}\nt0,w9,l0\n`
    const ok = read(rows(MAX_CANDIDATES))
    expect(ok.errors).toEqual([])
    expect(ok.traces[0].candidates).toHaveLength(MAX_CANDIDATES)
    const bad = read(rows(2000), {}, 't0,l0\n')
    // The 257th distinct label is on line 258; the file builds no tasks (a file-level fault).
    expect(bad.errors).toMatchObject([{ file: 'a.csv', line: MAX_CANDIDATES + 2, task: null, move: null, rule: 'too-many-labels' }])
    expect(bad.errors[0].message).toContain(`2,000 distinct labels; at most ${MAX_CANDIDATES}`)
    expect(bad.errors[0].message).toContain(`"l${MAX_CANDIDATES}"`)
    expect(bad.traces).toEqual([])
  })

  it('reads an empty file as no traces', () => {
    expect(read('task,worker,label\n')).toEqual({ traces: [], raws: [], errors: [], goldIgnored: 0 })
  })
})

describe('dialect flags', () => {
  it('parses --columns and --delimiter, refusing anything else', () => {
    expect(parseColumns('worker,task,label')).toEqual(['worker', 'task', 'label'])
    expect(() => parseColumns('task,task,label')).toThrow(/task, worker and label/)
    expect(() => parseColumns('task,worker')).toThrow()
    expect(parseDelimiter('tab')).toBe('tab')
    expect(parseDelimiter('semicolon')).toBe('semicolon')
    expect(() => parseDelimiter('|')).toThrow(/comma, semicolon, tab, space/)
  })

  it('readTraceOrCsv picks the reader by extension; .tsv defaults to tab', async () => {
    const dir = join(__dirname, '../../fixtures/io')
    const tsv = await readTraceOrCsv(join(dir, 'tiny.tsv'), DEFAULT_DIALECT)
    expect(tsv.errors).toEqual([])
    expect(tsv.traces.map((t) => t.task)).toEqual(['t1', 't2'])
    const jsonl = await readTraceOrCsv(join(dir, 'calibration.jsonl'), DEFAULT_DIALECT)
    expect(jsonl.errors).toEqual([])
    expect(jsonl.goldIgnored).toBe(0)
    expect(jsonl.traces.length).toBeGreaterThan(0)
  })
})
