/**
 * BenchSuite `import`: 1,000,000 moves in 200,000 tasks, imported the way `arbiter
 * import` does it (stream, validate the whole file, tallies, staged batches, publish), in a child
 * process so its peak memory is its own. Reference: a bare better-sqlite3 loop inserting the very
 * same rows (read back from the imported database: tasks with their packed moves, tallies, the
 * search index) into a fresh database with the identical schema — same tables, indexes, triggers
 * and full-text index — in batches of the same size.
 * Targets: ≥ 100,000 moves/s, peak RSS ≤ 1 GiB, and at most 2× the bare loop's time; medians of
 * three import / bare-loop pairs, run alternately.
 * With ARBITER_BENCH_BIG_UPLOAD=1 it also uploads a file past V8's string cap through the Import
 * screen in Chromium (big-upload.ts).
 */
import Database from 'better-sqlite3'
import { spawnSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runImport } from '../src/main/service/import'
import { openStore } from '../src/main/store'
import { bigUpload } from './big-upload'
import type { BenchSuite, Figure } from './figure'

const TASKS = 200_000
const SEATS = ['A1', 'A2', 'A3', 'A4', 'A5']
const BATCH = 2000
/** Import + bare-loop pairs; the figures are their medians. */
const RUNS = 3

/** A council trace of 5 moves: three proposals, a challenge and a concession, with short debate text. */
function line(i: number): string {
  const k = i % 3 === 0 ? 4 : i % 2 === 0 ? 3 : 2
  const candidates = Array.from({ length: k }, (_, c) => `option ${String.fromCharCode(65 + c)}`)
  const pick = (s: number) => candidates[(i * 7 + s * 3) % k]
  const seats = [SEATS[i % 5], SEATS[(i + 1) % 5], SEATS[(i + 2) % 5]]
  const moves = [
    { id: 'm1', round: 0, seat: seats[0], force: 'propose', answer: pick(0), confidence: 0.7, text: `I think ${pick(0)} because the evidence points there.` },
    { id: 'm2', round: 0, seat: seats[1], force: 'propose', answer: pick(1), text: `The record supports ${pick(1)}.` },
    { id: 'm3', round: 0, seat: seats[2], force: 'propose', answer: pick(2) },
    { id: 'm4', round: 1, seat: seats[1], force: 'challenge', target: 'm1', text: 'That reading ignores the control group.' },
    { id: 'm5', round: 1, seat: seats[2], force: 'concede', target: 'm2' }
  ]
  return JSON.stringify({ task: `bench-${String(i).padStart(7, '0')}`, question: `Bench question ${i}: which option holds for case ${i % 977}?`, candidates, gold: candidates[i % k], group: `G${i % 4}`, moves })
}

export async function writeTraces(path: string): Promise<void> {
  const out = createWriteStream(path)
  for (let i = 0; i < TASKS; i++) if (!out.write(`${line(i)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()))
  await new Promise<void>((r) => out.end(() => r()))
}

/** The child: one import, timed, with its peak RSS. */
async function child(file: string, db: string): Promise<void> {
  const store = await openStore(db)
  const t0 = performance.now()
  const out = await runImport(store, { path: file, fileName: file, displayName: 'bench', kind: 'traces', skipInvalid: false, goldAs: null, dialect: { columns: ['task', 'worker', 'label'], header: true }, goldName: null, target: { dbLocation: db, nativeBinding: null } }, { reviewer: 'bench', sessionId: 'bench', shell: 'cli' })
  const ms = performance.now() - t0
  await store.close()
  process.stdout.write(`${JSON.stringify({ ms, moves: out.moves, tasks: out.tasks, status: out.status, maxRssKiB: process.resourceUsage().maxRSS })}\n`)
}

/** The reference: the imported rows, read back, inserted by a plain loop into an identical, empty schema. */
async function bareInsert(source: string, target: string): Promise<number> {
  const empty = await openStore(target)
  await empty.close()
  const src = new Database(source, { readonly: true })
  const imp = src.prepare('SELECT * FROM imports').get() as Record<string, unknown>
  const seats = src.prepare('SELECT * FROM seats').all() as Record<string, unknown>[]
  const tasks = src.prepare('SELECT * FROM tasks ORDER BY rowid').raw().all() as unknown[][]
  const tallies = src.prepare('SELECT * FROM task_tallies').raw().all() as unknown[][]
  const byTask = new Map(tallies.map((t) => [t[0] as string, t]))
  const moves = new Map((src.prepare('SELECT task_id, moves FROM task_moves').raw().all() as [string, string][]))
  src.close()
  const db = new Database(target)
  db.pragma('journal_mode = WAL')
  db.pragma('foreign_keys = ON')
  // The same durability as the import: staged batches NORMAL, the final commit FULL.
  db.pragma('synchronous = NORMAL')
  const insImport = db.prepare(`INSERT INTO imports VALUES (${Object.keys(imp).map(() => '?').join(', ')})`)
  const insSeat = db.prepare('INSERT INTO seats VALUES (?, ?, ?)')
  const insTask = db.prepare(`INSERT INTO tasks VALUES (${tasks[0].map(() => '?').join(', ')})`)
  const insMoves = db.prepare('INSERT INTO task_moves (task_id, moves) VALUES (?, ?)')
  const insTally = db.prepare(`INSERT INTO task_tallies VALUES (${tallies[0].map(() => '?').join(', ')})`)
  const t0 = performance.now()
  db.transaction(() => {
    insImport.run(...Object.values({ ...imp, state: 'staged', published_at: null }))
    for (const s of seats) insSeat.run(...Object.values(s))
  }).immediate()
  const index = db.prepare(`INSERT INTO task_search (rowid, task_id, question) SELECT rowid, id, question FROM tasks WHERE rowid BETWEEN ? AND ? AND question IS NOT NULL`)
  for (let i = 0; i < tasks.length; i += BATCH) {
    db.transaction(() => {
      let first = Infinity
      let last = -Infinity
      for (let j = i; j < Math.min(i + BATCH, tasks.length); j++) {
        const rowid = Number(insTask.run(...tasks[j]).lastInsertRowid)
        first = Math.min(first, rowid)
        last = Math.max(last, rowid)
        const id = tasks[j][0] as string
        insMoves.run(id, moves.get(id))
        insTally.run(...byTask.get(id) as unknown[])
      }
      index.run(first, last)
    }).immediate()
  }
  db.pragma('synchronous = FULL')
  db.transaction(() => db.prepare(`UPDATE imports SET state = 'published', published_at = updated_at WHERE id = ?`).run(imp.id)).immediate()
  const ms = performance.now() - t0
  db.close()
  return ms
}

export const importSuite: BenchSuite = {
  name: 'import',
  summary: '1,000,000 moves (200,000 tasks) through arbiter import vs a bare insert loop of the same rows',
  async run(): Promise<Figure[]> {
    const figures = await importFigures()
    if (process.env.ARBITER_BENCH_BIG_UPLOAD === '1') figures.push(...(await bigUpload()))
    return figures
  }
}

async function importFigures(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-import-'))
  try {
    const file = join(dir, 'bench.trace.jsonl')
    await writeTraces(file)
    // Import and bare loop alternate, so each pair meets the same machine; the figures are medians.
    const runs: { ms: number; bareMs: number; moves: number; maxRssKiB: number }[] = []
    for (let i = 0; i < RUNS; i++) {
      const db = join(dir, `import-${i}.db`)
      const r = spawnSync(join(__dirname, '../node_modules/.bin/tsx'), [__filename, 'child', file, db], { encoding: 'utf8', maxBuffer: 1 << 20 })
      if (r.status !== 0) throw new Error(`import child failed: ${r.stderr}`)
      const got = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as { ms: number; moves: number; tasks: number; status: string; maxRssKiB: number }
      if (got.status !== 'imported' || got.tasks !== TASKS) throw new Error(`import did not write every task: ${r.stdout}`)
      const bareMs = await bareInsert(db, join(dir, `bare-${i}.db`))
      runs.push({ ms: got.ms, bareMs, moves: got.moves, maxRssKiB: got.maxRssKiB })
      // Every file of both databases (WAL too): unflushed gigabytes would slow the next pair's writes.
      for (const base of [db, join(dir, `bare-${i}.db`)]) for (const f of [base, `${base}-wal`, `${base}-shm`]) rmSync(f, { force: true })
    }
    const ms = median(runs.map((r) => r.ms))
    const bareMs = median(runs.map((r) => r.bareMs))
    const moves = runs[0].moves
    console.error(`import runs (import / bare, s): ${runs.map((r) => `${(r.ms / 1000).toFixed(2)} / ${(r.bareMs / 1000).toFixed(2)}`).join(', ')}`)
    return [
      { suite: 'import', name: 'throughput (1M moves, 200k tasks)', value: moves / (ms / 1000), unit: 'moves/s', target: 100_000, better: 'higher', reference: { name: 'bare insert loop', value: moves / (bareMs / 1000) } },
      { suite: 'import', name: 'wall time', value: ms / 1000, unit: 's', target: 10, better: 'lower', reference: { name: 'bare insert loop', value: bareMs / 1000 } },
      { suite: 'import', name: 'time / bare insert loop', value: median(runs.map((r) => r.ms / r.bareMs)), unit: '×', target: 2, better: 'lower', reference: null },
      { suite: 'import', name: 'peak memory (child RSS)', value: Math.max(...runs.map((r) => r.maxRssKiB)) / 1024, unit: 'MiB', target: 1024, better: 'lower', reference: null }
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

if (require.main === module && process.argv[2] === 'child') {
  child(process.argv[3], process.argv[4]).catch((e: unknown) => {
    console.error(e)
    process.exitCode = 1
  })
}
