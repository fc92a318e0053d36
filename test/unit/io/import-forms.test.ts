/**
 * What the readers say about a file in another form than the one they read: a semicolon-separated
 * CSV, a debate-rounds CSV missing one of its columns, a table of the wrong width.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_DIALECT, isRoundsFile, parseRecords, readLabelCsvText, readRoundsText } from '../../../src/main/io'

const dir = mkdtempSync(join(tmpdir(), 'arbiter-forms-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the semicolon dialect', () => {
  it('splits on ";" with RFC 4180 quoting, so a quoted cell may hold ";" and ","', () => {
    const { records, errors } = parseRecords('task;worker;label\nt1;w1;"a; b, c"\r\nt2;w2;"say ""x"""\n', 'semicolon', 'a.csv')
    expect(errors).toEqual([])
    expect(records.map((r) => r.fields)).toEqual([['task', 'worker', 'label'], ['t1', 'w1', 'a; b, c'], ['t2', 'w2', 'say "x"']])
  })

  it('reads a semicolon label CSV into the same tasks as its comma twin', () => {
    const semi = readLabelCsvText({ text: 'task;worker;label\nt1;w1;yes\nt1;w2;no\nt2;w1;no\n', file: 'a.csv' }, { ...DEFAULT_DIALECT, delimiter: 'semicolon' })
    const comma = readLabelCsvText({ text: 'task,worker,label\nt1,w1,yes\nt1,w2,no\nt2,w1,no\n', file: 'a.csv' }, DEFAULT_DIALECT)
    expect(semi.errors).toEqual([])
    expect(semi.traces).toEqual(comma.traces)
  })

  it('a semicolon file read as comma is one error that names the semicolon delimiter, not one per row', () => {
    const res = readLabelCsvText({ text: 'task;worker;label\nt1;w1;yes\nt1;w2;no\nt2;w1;no\n', file: 'a.csv' }, DEFAULT_DIALECT)
    expect(res.traces).toEqual([])
    expect(res.errors).toHaveLength(1)
    expect(res.errors[0]).toMatchObject({ line: 1, rule: 'wrong-form' })
    expect(res.errors[0].message).toMatch(/semicolon-separated.*--delimiter semicolon/)
  })
})

describe('a debate-rounds CSV missing a column', () => {
  const noSeat = 'task,round,model,answer,gold\nt1,0,m1,yes,yes\nt1,0,m2,no,yes\nt1,1,m1,yes,yes\n'

  it('is still recognised as debate rounds when it lacks "seat"', async () => {
    const path = join(dir, 'no-seat.csv')
    writeFileSync(path, noSeat)
    expect(await isRoundsFile(path, DEFAULT_DIALECT)).toBe(true)
  })

  it('is told it looks like debate rounds and which column is missing, once', () => {
    const res = readRoundsText({ text: noSeat, file: 'no-seat.csv' }, DEFAULT_DIALECT)
    expect(res.fatal).toBe(true)
    expect(res.errors).toHaveLength(1)
    expect(res.errors[0]).toMatchObject({ line: 1, rule: 'missing-field' })
    expect(res.errors[0].message).toMatch(/no "seat" column.*looks like debate rounds/)
  })

  it('lacking "round", read as a label CSV, is one error that says it looks like debate rounds without "round"', () => {
    const res = readLabelCsvText({ text: 'task,seat,model,answer\nt1,A1,m1,yes\nt1,A2,m2,no\n', file: 'no-round.csv' }, DEFAULT_DIALECT)
    expect(res.errors).toHaveLength(1)
    expect(res.errors[0]).toMatchObject({ line: 1, rule: 'wrong-form' })
    expect(res.errors[0].message).toMatch(/header has 4 columns.*looks like debate rounds.*no "round" column/)
    expect(res.errors[0].message).not.toMatch(/expected 3 columns/)
  })
})
