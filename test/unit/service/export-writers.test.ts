import { describe, expect, it } from 'vitest'
import { csvCell, decisionsWriter, exportCell, labelsWriter, readLabelsText } from '../../../src/main/io'
import { decisionRow } from '../../../src/main/service/export'
import type { TaskRow } from '../../../src/main/store'

const row: TaskRow = {
  taskId: 't,1', question: 'q', group: 'G', candidates: ['a', 'b'], createdAt: '2026-11-30T00:00:00.000Z', version: 1,
  moves: 5,
  state: 'defer', decision: 'defer', spotCheck: true, answer: 'a', posterior: { a: 0.6, b: 0.4 }, stopRound: null, gap: 0.1,
  bound: [0.5, null], disagreement: 0.2, fitId: 'f1', method: 'per-agent', decidedAt: '2026-11-30T01:00:00.000Z', label: null, reservedBy: null, flags: 0
}

describe('export writers (docs/formats.md)', () => {
  it('write decisions with docs/formats.md’s fields in order, JSON-encoding objects in CSV', () => {
    const csv = decisionsWriter('csv')
    expect(csv.header()).toBe('task,decision,spotCheck,answer,method,posterior,stopRound,gap,bound,label,labelSource,reviewer,decidedAt,fit\n')
    expect(csv.row(decisionRow(row))).toBe('"t,1",defer,true,a,per-agent,"{""a"":0.6,""b"":0.4}",,0.1,"[0.5,null]",,,,2026-11-30T01:00:00.000Z,f1\n')
    const json = JSON.parse(decisionsWriter('jsonl').row(decisionRow(row))) as Record<string, unknown>
    expect(Object.keys(json)).toEqual(['task', 'decision', 'spotCheck', 'answer', 'method', 'posterior', 'stopRound', 'gap', 'bound', 'label', 'labelSource', 'reviewer', 'decidedAt', 'fit'])
    expect(decisionsWriter('jsonl').header()).toBe('')
  })

  it('turns a human label into the decision: answer and time are the label’s, the engine’s bound is dropped', () => {
    const human = decisionRow({ ...row, state: 'human', answer: 'b', label: { taskId: 't,1', labelId: 'l', label: 'b', source: 'escalation', reviewer: 'ana', at: '2026-11-30T02:00:00.000Z' } })
    expect(human).toMatchObject({ decision: 'human', answer: 'b', label: 'b', labelSource: 'escalation', reviewer: 'ana', decidedAt: '2026-11-30T02:00:00.000Z', gap: null, bound: null, stopRound: null })
  })

  it('writes labels the label reader reads back (a missing note is left out)', () => {
    const w = labelsWriter('jsonl')
    const text = w.row({ task: 't1', label: 'a', source: 'random', reviewer: 'ana', at: '2026-11-30T12:00:00.000Z', note: null }) + w.row({ task: 't2', label: 'b', source: 'escalation', reviewer: 'bo', at: '2026-11-30T12:00:00.000Z', note: 'why' })
    const back = readLabelsText(text, 'x.jsonl')
    expect(back.errors).toEqual([])
    expect(back.labels).toEqual([
      { task: 't1', label: 'a', source: 'random', reviewer: 'ana', at: '2026-11-30T12:00:00.000Z' },
      { task: 't2', label: 'b', source: 'escalation', reviewer: 'bo', at: '2026-11-30T12:00:00.000Z', note: 'why' }
    ])
  })

  it('quotes CSV cells only when needed (RFC 4180)', () => {
    expect([csvCell('plain'), csvCell('a,b'), csvCell('say "hi"'), csvCell('two\nlines'), csvCell(null), csvCell(3)]).toEqual(['plain', '"a,b"', '"say ""hi"""', '"two\nlines"', '', '3'])
  })

  it('neutralises text a spreadsheet would run as a formula, and only that (CSV injection)', () => {
    const hostile = ['=HYPERLINK("http://x","y")', '+cmd|/c calc', '-2+3', '@SUM(A1)', '\tTAB', '\rCR', '-', '+']
    expect(hostile.map(exportCell)).toEqual([`"'=HYPERLINK(""http://x"",""y"")"`, "'+cmd|/c calc", "'-2+3", "'@SUM(A1)", "'\tTAB", `"'\rCR"`, "'-", "'+"])
    // Numbers, as numbers or as text, stay numbers; a formula sign later in the text is harmless.
    expect([exportCell(-0.25), exportCell('-5'), exportCell('+1.5e3'), exportCell('a=b'), exportCell("'=x")]).toEqual(['-0.25', '-5', '+1.5e3', 'a=b', "'=x"])
    // A CSV written to be read back keeps its values as they are.
    expect(hostile.map(csvCell)[1]).toBe('+cmd|/c calc')
    // A decisions row with a hostile task id and answer: both cells neutralised, the numbers kept.
    const line = decisionsWriter('csv').row({
      task: '=cmd()', decision: 'defer', spotCheck: false, answer: '@x', method: null, posterior: null, stopRound: null, gap: -0.1, bound: null, label: null, labelSource: null, reviewer: null, decidedAt: null, fit: null
    })
    expect(line.startsWith("'=cmd(),defer,false,'@x,")).toBe(true)
    expect(line).toContain(',-0.1,')
  })
})
