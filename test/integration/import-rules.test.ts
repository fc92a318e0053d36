/**
 * Bad input: one import per rule of docs/engine.md §1 and docs/formats.md — each exits
 * 2, names the file, line and rule on stderr, and leaves the database byte-for-byte unchanged (no
 * audit row either). The trace and CSV fixtures are the readers' own (test/fixtures/io), with the
 * line each error must name; label files are written here.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCommand } from '../../src/main/cli/commands/import'
import { EXAMPLE_TRACES } from '../helpers/seed'

const ROOT = join(__dirname, '../..')
const FIX = join(ROOT, 'test/fixtures/io')
type Expected = { rule: string; file: string; gold?: string; errorFile?: 'gold'; line: number; task: string | null; move: string | null }

let dir: string
let db: string

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await importCommand.run([...argv, '--db', db], { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) })
  return { code, out, err }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-rules-'))
  db = join(dir, 'arbiter.db')
  const r = await cli(EXAMPLE_TRACES)
  expect(r.code).toBe(0)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs a bad import and checks the exit code, the named line and rule, and the untouched database. */
async function refused(args: string[], file: string, line: number, rule: string, task: string | null = null): Promise<string> {
  const before = digest(db)
  const r = await cli(...args)
  expect(r.code, r.err).toBe(2)
  expect(r.err).toContain(`${file}:${line}: `)
  expect(r.err).toContain(` ${rule} — `)
  if (task !== null) expect(r.err).toContain(`task ${task}`)
  expect(r.err).toMatch(/nothing was imported/)
  expect(digest(db)).toBe(before)
  expect(existsSync(`${db}-wal`)).toBe(false)
  return r.err
}

describe('import refuses every invalid trace (docs/engine.md §1), naming line and rule, writing nothing', () => {
  const expected = JSON.parse(readFileSync(join(FIX, 'invalid-trace/expected.json'), 'utf8')) as Expected[]
  for (const e of expected) {
    it(`${e.rule} (${e.file}:${e.line})`, async () => {
      const file = join(FIX, 'invalid-trace', e.file)
      const err = await refused([file], file, e.line, e.rule, e.task)
      if (e.move !== null) expect(err).toContain(`move ${e.move}`)
    })
  }
})

describe('import refuses every invalid label-aggregation CSV (docs/formats.md)', () => {
  const expected = JSON.parse(readFileSync(join(FIX, 'invalid-csv/expected.json'), 'utf8')) as Expected[]
  for (const e of expected) {
    it(`${e.rule} (${e.file}:${e.line})`, async () => {
      const file = join(FIX, 'invalid-csv', e.file)
      const gold = e.gold === undefined ? [] : ['--gold', join(FIX, 'invalid-csv', e.gold)]
      await refused([file, ...gold], e.errorFile === 'gold' ? join(FIX, 'invalid-csv', e.gold as string) : file, e.line, e.rule, e.task)
    })
  }
})

describe('import refuses every invalid debate-rounds file (docs/formats.md "Debate rounds")', () => {
  const expected = JSON.parse(readFileSync(join(FIX, 'invalid-rounds/expected.json'), 'utf8')) as (Expected & { fatal?: boolean })[]
  for (const e of expected) {
    it(`${e.rule} (${e.file}:${e.line})`, async () => {
      const file = join(FIX, 'invalid-rounds', e.file)
      const err = await refused([file], file, e.line, e.rule, e.task)
      if (e.move !== null) expect(err).toContain(`move ${e.move}`)
    })
  }

  it('--skip-invalid skips whole tasks, but not a file it cannot read as rows', async () => {
    const fresh = join(dir, 'rounds-skip.db')
    const run = async (file: string) => {
      let out = ''
      let err = ''
      const code = await importCommand.run([join(FIX, 'invalid-rounds', file), '--db', fresh, '--skip-invalid', '--json'], { out: (t) => (out += t), err: (t) => (err += t) })
      return { code, out, err }
    }
    const fatal = await run('bad-quote.csv')
    expect(fatal.code).toBe(2)
    expect(existsSync(fresh)).toBe(false)
    const skipped = await run('no-candidates.csv')
    expect(skipped.code, skipped.err).toBe(0)
    expect(skipped.err).toContain('no-candidates.csv:4: task bad: no-candidates')
    expect(JSON.parse(skipped.out)).toMatchObject({ status: 'imported', kind: 'rounds', tasks: 1, moves: 2, errorCount: 1 })
  })
})

describe('import refuses invalid label files (arbiter.labels/1) and labels the database cannot take', () => {
  const ok = '{"task":"medclaim-0001","label":"true","source":"random","reviewer":"ana","at":"2026-11-30T12:00:00Z"}'
  const cases: [string, string, number, string][] = [
    ['unknown task', `${ok}\n{"task":"nope","label":"true","source":"random","reviewer":"ana","at":"2026-11-30T12:00:00Z"}\n`, 2, 'unknown-task'],
    ['not a candidate', `${ok}\n\n{"task":"medclaim-0002","label":"maybe","source":"escalation","reviewer":"bo","at":"2026-11-30T12:00:00Z"}\n`, 3, 'label-not-candidate'],
    ['malformed JSON', `${ok}\n{"task":\n`, 2, 'malformed-json'],
    ['wrong type', `${ok}\n{"task":"medclaim-0002","label":1,"source":"random","reviewer":"bo","at":"2026-11-30T12:00:00Z"}\n`, 2, 'wrong-type'],
    ['bad source', `${ok}\n{"task":"medclaim-0002","label":"true","source":"gold","reviewer":"bo","at":"2026-11-30T12:00:00Z"}\n`, 2, 'bad-source'],
    ['zoneless time', `${ok}\n{"task":"medclaim-0002","label":"true","source":"random","reviewer":"bo","at":"2026-11-30T12:00:00"}\n`, 2, 'bad-time']
  ]
  for (const [name, text, line, rule] of cases) {
    it(`${name}: ${rule}`, async () => {
      const file = join(dir, `${rule}.labels.jsonl`)
      writeFileSync(file, text)
      await refused([file], file, line, rule)
    })
  }
})

describe('import refuses a valid file that contradicts the database', () => {
  it('a task id that arrives with different content names both files', async () => {
    const lines = readFileSync(EXAMPLE_TRACES, 'utf8').trim().split('\n')
    const changed = JSON.parse(lines[1]) as { question: string }
    changed.question = 'edited'
    const file = join(dir, 'changed.jsonl')
    writeFileSync(file, `${lines[0]}\n${JSON.stringify(changed)}\n`)
    const err = await refused([file], file, 2, 'changed-task', 'medclaim-0002')
    expect(err).toContain(EXAMPLE_TRACES)
  })

  it('a seat id declared with another model', async () => {
    const file = join(dir, 'seat.jsonl')
    writeFileSync(file, `${JSON.stringify({ task: 'new-1', candidates: ['a', 'b'], seats: [{ id: 'A1', model: 'other-model' }], moves: [] })}\n`)
    await refused([file], file, 1, 'seat-model-clash', 'new-1')
  })

  it('--skip-invalid imports the valid lines and lists the rejected ones', async () => {
    const file = join(FIX, 'invalid-trace/unknown-target.jsonl')
    const r = await cli(file, '--skip-invalid', '--json')
    expect(r.code).toBe(0)
    expect(r.err).toContain(`${file}:3: task bad move m2: unknown-target`)
    const summary = JSON.parse(r.out) as { status: string; tasks: number; errorCount: number }
    expect(summary).toMatchObject({ status: 'imported', tasks: 1, errorCount: 1 })
  })

  it('a rejected file never creates a database that did not exist', async () => {
    const fresh = join(dir, 'never.db')
    const r = await importCommand.run([join(FIX, 'invalid-trace/malformed-json.jsonl'), '--db', fresh], { out: () => {}, err: () => {} })
    expect(r).toBe(2)
    expect(existsSync(fresh)).toBe(false)
  })
})

describe('the real entry point', () => {
  it('exits 2 with the error on stderr (spawned `arbiter import`)', () => {
    const file = join(FIX, 'invalid-trace/target-not-earlier.jsonl')
    const before = digest(db)
    const r = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['src/main/cli/index.ts', 'import', file, '--db', db], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(`${file}:3: task bad move m1: target-not-earlier`)
    expect(r.stdout).toBe('')
    expect(digest(db)).toBe(before)
  })
})
