import { describe, it, expect } from 'vitest'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LABEL_RULES, readLabelsFile, readLabelsText } from '../../../src/main/io'

const ok = { task: 'medclaim-0001', label: 'true', source: 'random', reviewer: 'ana', at: '2026-11-30T12:00:00Z', note: '...' }
const line = (o: object): string => JSON.stringify(o)

describe('label JSONL reader (arbiter.labels/1)', () => {
  it('reads the docs/formats.md example and keeps unknown fields in the raw object', () => {
    const { note: _note, ...noNote } = ok
    const second = { ...noNote, source: 'escalation', at: '2026-11-30T13:00:00.5+01:00' }
    const res = readLabelsText(line({ format: 'arbiter.labels/1', ...ok, extra: 1 }) + '\n' + line(second), 'l.jsonl')
    expect(res.errors).toEqual([])
    expect(res.labels).toEqual([ok, second])
    expect(res.raws[0]).toEqual({ format: 'arbiter.labels/1', ...ok, extra: 1 })
  })

  it('reports each rule with the physical line and the task', () => {
    const lines = [
      line(ok),
      '',
      '{"task":',
      '"x"',
      line({ ...ok, task: 't2', reviewer: undefined }),
      line({ ...ok, task: 't3', label: 3 }),
      line({ ...ok, task: 't4', format: 'arbiter.trace/1' }),
      line({ ...ok, task: 't5', source: 'gold' }),
      line({ ...ok, task: 't6', at: '2026-11-30 12:00' }),
      line({ ...ok, task: 't7', at: '2026-11-30T12:00:00' }),
      line({ ...ok, task: 't8', at: '2026-13-45T12:00:00Z' })
    ]
    const res = readLabelsText(lines.join('\r\n'), 'l.jsonl')
    expect(res.labels.map((l) => l.task)).toEqual(['medclaim-0001'])
    expect(res.errors.map((e) => [e.line, e.task, e.rule])).toEqual([
      [3, null, 'malformed-json'],
      [4, null, 'not-an-object'],
      [5, 't2', 'missing-field'],
      [6, 't3', 'wrong-type'],
      [7, 't4', 'bad-format'],
      [8, 't5', 'bad-source'],
      [9, 't6', 'bad-time'],
      [10, 't7', 'bad-time'],
      [11, 't8', 'bad-time']
    ])
    expect(new Set(res.errors.map((e) => e.rule))).toEqual(new Set(LABEL_RULES))
    expect(res.errors.every((e) => e.move === null && e.file === 'l.jsonl')).toBe(true)
  })

  it('streams a file with the same result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-labels-'))
    const path = join(dir, 'l.jsonl')
    const text = `${line(ok)}\n\n${line({ ...ok, source: 'x' })}\n`
    writeFileSync(path, text)
    expect(await readLabelsFile(path)).toEqual(readLabelsText(text, path))
  })
})
