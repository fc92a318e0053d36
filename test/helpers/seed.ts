import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Trace } from '../../src/shared/trace'
import { openStore, type Actor, type Store, type TaskInput } from '../../src/main/store'
import { taskInputOf } from '../../src/main/service/import/task-input'

export const EXAMPLE_TRACES = join(__dirname, '../../resources/examples/council.trace.jsonl')

export const TEST_ACTOR: Actor = { reviewer: 'test', sessionId: 'test-session', shell: 'cli' }

/** The example traces as parsed objects (the file is valid by construction; the io tests check it). */
export function exampleTraces(): Trace[] {
  return readFileSync(EXAMPLE_TRACES, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Trace)
}

/** The import's own conversion (tallies included), so seeded tasks are exactly what `import` writes. */
export function taskInput(trace: Trace): TaskInput {
  return taskInputOf(trace, JSON.parse(JSON.stringify(trace)) as Record<string, unknown>)
}

/** `seedTraces` into the database at `dbLocation` (opened and closed here). */
export async function seedTracesAt(dbLocation: string, traces: Trace[]): Promise<void> {
  const store = await openStore(dbLocation)
  try {
    await seedTraces(store, traces)
  } finally {
    await store.close()
  }
}

/** Publishes the traces as one import, through the store's real staged-import operations. */
export async function seedTraces(store: Store, traces: Trace[], fileName = 'example.trace.jsonl'): Promise<void> {
  const sha = createHash('sha256').update(traces.map((t) => JSON.stringify(t)).join('\n')).digest('hex')
  const begun = await store.beginImport({ fileName, sha256: sha, kind: 'traces' }, TEST_ACTOR)
  await store.writeImportBatch(begun.value.id, { tasks: traces.map(taskInput) })
  await store.publishImport(begun.value.id, TEST_ACTOR)
}
