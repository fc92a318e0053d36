/**
 * Common import mistakes, through `arbiter import`: each file is refused with one error that says what
 * the file looks like and what is missing (not one error per line), or read as the user meant.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCommand } from '../../src/main/cli/commands/import'
import { EXAMPLE_TRACES } from '../helpers/seed'

let dir: string
let db: string
const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string; errLines: string[] }> {
  let out = ''
  const errLines: string[] = []
  const code = await importCommand.run([...argv, '--db', db], { out: (t) => (out += `${t}\n`), err: (t) => errLines.push(t) })
  return { code, out, err: errLines.join('\n'), errLines }
}

async function refusedJson(file: string, ...flags: string[]): Promise<{ errors: { rule: string; line: number; message: string }[]; errorCount: number; status: string }> {
  const before = digest(db)
  const r = await cli(file, '--json', ...flags)
  expect(r.code, r.err).toBe(2)
  expect(digest(db)).toBe(before)
  return JSON.parse(r.out) as { errors: { rule: string; line: number; message: string }[]; errorCount: number; status: string }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-mistakes-'))
  db = join(dir, 'arbiter.db')
  expect((await cli(EXAMPLE_TRACES)).code).toBe(0)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('import says which form a file looks like and what is missing', () => {
  it('a debate-rounds CSV without "seat" is read as rounds: one error naming the missing column', async () => {
    const file = join(dir, 'no-seat.csv')
    writeFileSync(file, ['task,round,model,answer', 'x1,0,m1,yes', 'x1,0,m2,no', 'x1,1,m1,yes', 'x2,0,m1,no'].join('\n'))
    const out = await refusedJson(file)
    expect(out.errorCount).toBe(1)
    expect(out.errors[0]).toMatchObject({ line: 1, rule: 'missing-field' })
    expect(out.errors[0].message).toMatch(/no "seat" column.*debate rounds/)
    expect(out.errors[0].message).not.toMatch(/expected 3 columns/)
  })

  it('a JSON array of tasks is told once to use JSONL', async () => {
    const tasks = Array.from({ length: 20 }, (_, i) => ({ task: `arr-${i}`, candidates: ['a', 'b'], moves: [] }))
    const file = join(dir, 'tasks.json')
    writeFileSync(file, JSON.stringify(tasks, null, 2))
    const out = await refusedJson(file)
    expect(out.errorCount).toBe(1)
    expect(out.errors[0]).toMatchObject({ line: 1, rule: 'not-jsonl' })
    expect(out.errors[0].message).toMatch(/JSON array; use JSONL/)
  })

  it('an empty file is refused, and a database that did not exist is not created', async () => {
    const file = join(dir, 'empty.jsonl')
    writeFileSync(file, '\n  \n')
    const out = await refusedJson(file)
    expect(out).toMatchObject({ status: 'rejected', errorCount: 1 })
    expect(out.errors[0].rule).toBe('empty-file')
    expect(out.errors[0].message).toMatch(/the file is empty.*nothing was written/)
    const fresh = join(dir, 'never.db')
    expect(await importCommand.run([file, '--db', fresh], { out: () => {}, err: () => {} })).toBe(2)
    expect(existsSync(fresh)).toBe(false)
  })

  it('a semicolon CSV imports with --delimiter semicolon, and without it says to choose it', async () => {
    const file = join(dir, 'semi.csv')
    writeFileSync(file, 'task;worker;label\ns1;w1;"yes; surely"\ns1;w2;no\ns2;w1;no\ns2;w2;no\n')
    const wrong = await refusedJson(file)
    expect(wrong.errorCount).toBe(1)
    expect(wrong.errors[0]).toMatchObject({ line: 1, rule: 'wrong-form' })
    expect(wrong.errors[0].message).toMatch(/--delimiter semicolon/)
    const r = await cli(file, '--delimiter', 'semicolon', '--json')
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ status: 'imported', kind: 'csv', tasks: 2, moves: 4 })
  })
})

describe('repeated and database errors', () => {
  it('many tasks with changed content: every line listed, and one summary of the rule', async () => {
    const task = (i: number, question: string) => JSON.stringify({ task: `many-${i}`, question, candidates: ['a', 'b'], moves: [{ id: 'm1', round: 0, seat: 'W1', force: 'propose', answer: 'a' }] })
    const original = join(dir, 'many.jsonl')
    writeFileSync(original, `${Array.from({ length: 12 }, (_, i) => task(i, 'first')).join('\n')}\n`)
    expect((await cli(original)).code).toBe(0)
    const file = join(dir, 'changed.jsonl')
    writeFileSync(file, `${Array.from({ length: 12 }, (_, i) => task(i, 'edited')).join('\n')}\n`)
    const r = await cli(file)
    expect(r.code).toBe(2)
    expect(r.errLines.filter((l) => /:\d+: task many-\d+: changed-task — /.test(l))).toHaveLength(12)
    expect(r.errLines.filter((l) => l.includes('12 tasks: changed-task — '))).toHaveLength(1)
  })

  it('a seat declared with another model: the error says how to fix it', async () => {
    const file = join(dir, 'seat.jsonl')
    writeFileSync(file, `${JSON.stringify({ task: 'new-1', candidates: ['a', 'b'], seats: [{ id: 'A1', model: 'other-model' }], moves: [] })}\n`)
    const out = await refusedJson(file)
    expect(out.errors[0].rule).toBe('seat-model-clash')
    expect(out.errors[0].message).toMatch(/To fix: .*its own seat id .*"A1-other-model".*same agent, write its model as "/)
  })
})
