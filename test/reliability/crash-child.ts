/**
 * The workload the reliability suites run in a child process, against a real database file,
 * through the same code paths the console and the CLI use:
 *
 *   import  <db> <trace file> <threaded 0|1>   runImport (staged batches, publish), as `arbiter import`;
 *                                             <db> may be a postgres:// URL
 *   resolve <db> <seed> <max labels>          labels.resolve / labels.undo through the service's handlers
 *   fit     <db>                              fits.run then fits.redecide through the service (worker thread)
 *   import-chain <db> <retry file|-> <file>   the retry of one file, then (after a second line) an import of the next
 *
 * Protocol, one line each: `loaded` once the code is loaded; then the child waits for a line on
 * stdin before touching the database (the parent checks the previous kill's database meanwhile);
 * `ready <sessionId>`; `phase <name>` as an import enters each phase (validating, checking, writing,
 * publishing); `ack <labelId>` after each resolve/undo RETURNS (the call returns only once
 * the label is committed); `done …` at the end. A failure prints `error <code> <message>` on stderr
 * and exits with the CLI's code for it. Every line goes to stdout, and with CRASH_LOG set also to
 * that file by a synchronous write: stdout is a socket Node writes asynchronously once its buffer
 * fills, so lines still queued in the child die with it, while a write(2) to a file is in the
 * kernel when it returns — the file is the parent's record of what was acknowledged.
 */
import { openSync, writeSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { CLI_EXIT } from '../../src/shared/errors'
import { dispatch } from '../../src/main/host/dispatch'
import { createService, type Service } from '../../src/main/service'
import { runImport } from '../../src/main/service/import'
import { openStore } from '../../src/main/store'
import { prng } from './crash-support'

const log = process.env.CRASH_LOG === undefined ? null : openSync(process.env.CRASH_LOG, 'a')
const say = (line: string) => {
  if (log !== null) writeSync(log, `${line}\n`)
  process.stdout.write(`${line}\n`)
}

async function call<T>(service: Service, method: string, args: unknown = {}): Promise<T> {
  const env = await dispatch(service.handlers, method, args, service.context())
  if (!env.ok) throw Object.assign(new Error(env.error.message), { code: env.error.code })
  return env.value as T
}

/** `tag` starts each line (the chain's retry part says `retry ready import`, `retry done …`). */
async function importFile(db: string, file: string, threaded: boolean, tag = ''): Promise<void> {
  const store = await openStore(db)
  say(`${tag}ready import`)
  let phase = ''
  const out = await runImport(
    store,
    { path: file, fileName: file, displayName: 'crash', kind: 'traces', skipInvalid: false, goldAs: null, dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null, target: threaded ? { dbLocation: db, nativeBinding: null } : null },
    { reviewer: 'crash-import', sessionId: 'crash-import', shell: 'cli' },
    // Each phase once, as it starts (`writing` after the first staged batch is committed).
    (p) => {
      if (p.phase !== phase) say(`${tag}phase ${(phase = p.phase)}`)
    }
  )
  say(`${tag}done ${out.status} ${out.tasks}`)
  await store.close()
}

type Row = { taskId: string; candidates: string[]; version: number; label: { source: string } | null }

/** A reviewer clearing the queue: resolve, now and then undo, now and then pause (so a debounced refit starts). */
async function resolveLoop(db: string, seed: number, max: number): Promise<void> {
  const service = await createService({ store: await openStore(db), dbLocation: db, nativeBinding: null, shell: 'web' })
  say(`ready ${service.context().sessionId}`)
  const rand = prng(seed)
  let acks = 0
  while (acks < max) {
    const page = await call<{ rows: Row[]; total: number }>(service, 'queue.page', { filter: { decision: null }, offset: Math.floor(rand() * 900), limit: 20 })
    for (const row of page.rows) {
      if (acks >= max) break
      // A blind label belongs to the calibration set: only an adjudication changes it (docs/team.md).
      if (row.label?.source === 'random') continue
      const label = row.candidates[Math.floor(rand() * row.candidates.length)]
      const r = await call<{ labelId: string; version: number }>(service, 'labels.resolve', { taskId: row.taskId, label, expectedVersion: row.version })
      say(`ack ${r.labelId}`)
      acks++
      if (rand() < 0.15) {
        const u = await call<{ labelId: string }>(service, 'labels.undo', { labelId: r.labelId, expectedVersion: r.version })
        say(`ack ${u.labelId}`)
        acks++
      }
    }
    if (rand() < 0.1) await new Promise((r) => setTimeout(r, 150))
  }
  say(`done ${acks}`)
  await service.close()
}

async function fit(db: string): Promise<void> {
  const service = await createService({ store: await openStore(db), dbLocation: db, nativeBinding: null, shell: 'web' })
  say(`ready ${service.context().sessionId}`)
  const f = await call<{ id: string }>(service, 'fits.run')
  say(`fitted ${f.id}`)
  const d = await call<{ id: string }>(service, 'fits.redecide', { budget: { kind: 'absolute', beta: 0.25 } })
  say(`done ${d.id}`)
  await service.close()
}

/**
 * import-chain: the retry of one file (`-`: none), then — after a second line — an import of the
 * next file, the one the parent kills. One process does both, so a kill-and-retry round costs one
 * process start, and that start overlaps the previous round.
 */
async function importChain(db: string, retry: string, next: string, nextLine: () => Promise<boolean>): Promise<void> {
  if (retry !== '-') await importFile(db, retry, false, 'retry ')
  say('between')
  if (await nextLine()) await importFile(db, next, false)
}

async function main(argv: string[]): Promise<void> {
  const [mode, db, a, b] = argv
  say('loaded')
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
  const nextLine = async () => (await lines.next()).done !== true
  // Nothing touches the database before the parent says so.
  await nextLine()
  if (mode === 'import') return importFile(db, a, b === '1')
  if (mode === 'import-chain') return importChain(db, a, b, nextLine)
  if (mode === 'resolve') return resolveLoop(db, Number(a), Number(b))
  if (mode === 'fit') return fit(db)
  throw new Error(`unknown mode ${mode}`)
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (e: unknown) => {
    const err = e as { code?: unknown; message?: unknown }
    const code = typeof err.code === 'string' && err.code in CLI_EXIT ? err.code : 'internal'
    process.stderr.write(`error ${code} ${String(err.message ?? e)}\n`)
    process.exit(CLI_EXIT[code as keyof typeof CLI_EXIT])
  }
)
