/**
 * Who owns a staged import, through the import use case: a file whose tasks another import is staging is refused
 * while that import's importer lives — with who began it, where and since when — and imports whole
 * the moment it is dead, in the same process, without reopening the store.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { Trace } from '../../../src/shared/trace'
import { runImport, type ImportRequest } from '../../../src/main/service/import'
import { taskInputOf } from '../../../src/main/service/import/task-input'
import { openStore, type Actor, type Store } from '../../../src/main/store'
import { EXAMPLE_TRACES } from '../../helpers/seed'

const ANA: Actor = { reviewer: 'ana', sessionId: 'session-ana', shell: 'cli' }
const BO: Actor = { reviewer: 'bo', sessionId: 'session-bo', shell: 'web' }
const req: ImportRequest = {
  path: EXAMPLE_TRACES, fileName: 'council.trace.jsonl', displayName: 'file', kind: 'auto', skipInvalid: false, goldAs: null,
  dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null
}
const lines = readFileSync(EXAMPLE_TRACES, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>)

let dir: string
let db: string
let store: Store

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-own-'))
  db = join(dir, 'a.db')
  store = await openStore(db)
})
afterEach(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Another process's store staging the file's first two tasks (as an `arbiter import` of another file would). */
async function stagedByAnother(): Promise<{ other: Store; id: string; since: string }> {
  const other = await openStore(db)
  const begun = await other.beginImport({ fileName: 'other.jsonl', sha256: 'a'.repeat(64), kind: 'traces' }, BO)
  await other.writeImportBatch(begun.value.id, { tasks: lines.slice(0, 2).map((raw) => taskInputOf(raw as unknown as Trace, raw)) })
  return { other, id: begun.value.id, since: begun.value.createdAt }
}

it('refuses the tasks a live import is staging, naming who began it, where and since when', async () => {
  const { other, id, since } = await stagedByAnother()
  try {
    const out = await runImport(store, req, ANA)
    expect(out.status).toBe('rejected')
    expect(out.errors.map((e) => [e.task, e.rule])).toEqual(lines.slice(0, 2).map((l) => [l.task, 'task-being-imported']))
    expect(out.errors[0].message).toBe(
      `task ${String(lines[0].task)} is being imported from other.jsonl (import ${id}) by bo (web, session session-bo) since ${since}, not yet published; try again when it is`
    )
  } finally {
    await other.close()
  }
})

it('imports the whole file at once when the import staging its tasks is dead, without reopening the store', async () => {
  const { other } = await stagedByAnother()
  await other.close() // its lock goes, as with a killed process; its staged rows stay
  expect((await store.existingTasks(lines.map((l) => String(l.task)))).map((e) => e.state)).toEqual(['staged', 'staged'])
  const out = await runImport(store, req, ANA)
  expect(out).toMatchObject({ status: 'imported', tasks: lines.length, errorCount: 0 })
  expect((await store.counts()).tasks).toBe(lines.length)
})
