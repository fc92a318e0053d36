/**
 * Keys that are special to JavaScript objects are plain data in a trace file:
 * `__proto__` and `constructor`, at a task's top level and inside a move, are imported, stored and
 * read back as the file's own fields, and never touch a prototype. A refused import leaves no
 * database file behind when there was none.
 */
import Database from 'better-sqlite3'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importCommand } from '../../src/main/cli/commands/import'
import { LazyStore } from '../../src/main/service/cli-support'
import { openStore } from '../../src/main/store'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-hostile-keys-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function importInto(db: string, file: string): Promise<{ code: number; err: string }> {
  let err = ''
  const code = await importCommand.run([file, '--db', db], { out: () => undefined, err: (t) => (err += `${t}\n`) })
  return { code, err }
}

/** A task's stored top-level fields (the store keeps them for round-tripping; no read returns them). */
function storedTaskRaw(db: string, taskId: string): unknown {
  const sql = new Database(db, { readonly: true })
  try {
    return JSON.parse((sql.prepare('SELECT raw FROM tasks WHERE id = ?').get(taskId) as { raw: string }).raw)
  } finally {
    sql.close()
  }
}

const move = (extra: string) => `{"id":"m1","round":0,"seat":"A1","force":"propose","answer":"a"${extra}}`
const CASES = [
  { name: 'top-level __proto__', line: `{"format":"arbiter.trace/1","task":"t-top-proto","candidates":["a","b"],"__proto__":{"polluted":true},"moves":[${move('')}]}`, where: 'task', key: '__proto__' },
  { name: 'top-level constructor', line: `{"format":"arbiter.trace/1","task":"t-top-ctor","candidates":["a","b"],"constructor":{"prototype":{"polluted":true}},"moves":[${move('')}]}`, where: 'task', key: 'constructor' },
  { name: 'move __proto__', line: `{"format":"arbiter.trace/1","task":"t-move-proto","candidates":["a","b"],"moves":[${move(',"__proto__":{"polluted":true}')}]}`, where: 'move', key: '__proto__' },
  { name: 'move constructor', line: `{"format":"arbiter.trace/1","task":"t-move-ctor","candidates":["a","b"],"moves":[${move(',"constructor":{"prototype":{"polluted":true}}')}]}`, where: 'move', key: 'constructor' }
] as const

describe('__proto__ and constructor keys are plain data', () => {
  for (const c of CASES) {
    it(`${c.name}: imported, stored and read back as the file's own field`, async () => {
      const file = join(dir, 'hostile.jsonl')
      writeFileSync(file, `${c.line}\n`)
      const db = join(dir, 'arbiter.db')
      const r = await importInto(db, file)
      expect(r.err).toBe('')
      expect(r.code).toBe(0)
      const store = await openStore(db)
      try {
        const task = JSON.parse(c.line) as { task: string; moves: Record<string, unknown>[] } & Record<string, unknown>
        const detail = await store.taskDetail(task.task)
        const stored = (c.where === 'task' ? storedTaskRaw(db, task.task) : detail.task.moves[0].raw) as Record<string, unknown>
        const given = c.where === 'task' ? task : task.moves[0]
        expect(Object.getPrototypeOf(stored)).toBe(Object.prototype)
        expect(Object.prototype.hasOwnProperty.call(stored, c.key)).toBe(true)
        expect(JSON.stringify(stored[c.key])).toBe(JSON.stringify(given[c.key]))
      } finally {
        await store.close()
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })
  }
})

describe('a refused import', () => {
  it('leaves no database file behind when there was none', async () => {
    const file = join(dir, 'bad.jsonl')
    writeFileSync(file, `${CASES[0].line}\n{"format":"arbiter.trace/1","task":"x","candidates":["a"],"moves":[]}\n`)
    const db = join(dir, 'new.db')
    const r = await importInto(db, file)
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/nothing was imported/)
    expect(readdirSync(dir).filter((f) => f.startsWith('new.db'))).toEqual([])
  })

  it('a store opened for an import that then fails is removed if this run made it and it holds nothing', async () => {
    const made = new LazyStore(join(dir, 'made.db'))
    await made.get()
    expect(existsSync(join(dir, 'made.db'))).toBe(true)
    await made.closeRemovingIfUnused()
    expect(readdirSync(dir).filter((f) => f.startsWith('made.db'))).toEqual([])
    // Data written to the new file in the meantime (another process) keeps it.
    const shared = new LazyStore(join(dir, 'shared.db'))
    await shared.get()
    const file = join(dir, 'good.jsonl')
    writeFileSync(file, `${CASES[3].line}\n`)
    expect((await importInto(join(dir, 'shared.db'), file)).code).toBe(0)
    await shared.closeRemovingIfUnused()
    expect(existsSync(join(dir, 'shared.db'))).toBe(true)
  })

  it('keeps a database that was there before', async () => {
    const good = join(dir, 'good.jsonl')
    writeFileSync(good, `${CASES[2].line}\n`)
    const db = join(dir, 'kept.db')
    expect((await importInto(db, good)).code).toBe(0)
    const bad = join(dir, 'bad.jsonl')
    writeFileSync(bad, '{"format":"arbiter.trace/1","task":"x","candidates":["a"],"moves":[]}\n')
    expect((await importInto(db, bad)).code).toBe(2)
    expect(existsSync(db)).toBe(true)
  })
})
