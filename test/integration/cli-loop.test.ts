/**
 * The database commands through the real entry point (docs/formats.md CLI contract): `demo`, `import`,
 * `fit --json`, `decide --beta`, `export` with a filter, and their exit codes — on a SQLite file
 * and on a PostgreSQL URL (`--db postgres://…`, a database of the file's throwaway cluster): one
 * suite, two backends.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanCouncil, toJsonl } from '../../src/main/sim'
import { openStore } from '../../src/main/store'
import { postgresDatabase, sqliteFile, type DbLocation, type MakeDbLocation } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'

const ROOT = join(__dirname, '../..')
const FIX = join(ROOT, 'test/fixtures/io')

function arbiter(...argv: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['src/main/cli/index.ts', ...argv], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
}

interface Backend {
  name: string
  makeDbLocation: MakeDbLocation
  /** A database location where no database is: the commands that read one refuse it (exit 2). */
  missing(dir: string): string
  /** What `demo` says when the database already holds data. */
  demoRefusal: RegExp
}

function defineCliLoop(backend: Backend): void {
  describe(`arbiter demo, import, fit, decide, export on ${backend.name}`, () => {
    let dir: string
    let db: string
    const locations: DbLocation[] = []
    const newDbLocation = async (): Promise<string> => {
      const l = await backend.makeDbLocation()
      locations.push(l)
      return l.dbLocation
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'arbiter-cli-loop-'))
      db = await newDbLocation()
    })
    afterAll(async () => {
      for (const l of locations) await l.cleanup()
      rmSync(dir, { recursive: true, force: true })
    })

    it('demo creates a fitted, decided database once, and refuses an existing one', () => {
      const r = arbiter('demo', '--db', db, '--json')
      expect(r.status, r.stderr).toBe(0)
      const report = JSON.parse(r.stdout) as { tasks: number; acted: number; deferred: number }
      expect(report.tasks).toBe(1000)
      expect(report.acted + report.deferred).toBe(560)
      const again = arbiter('demo', '--db', db)
      expect(again.status).toBe(2)
      expect(again.stderr).toMatch(backend.demoRefusal)
    })

    it('fit --json prints hyperparameters, each seat’s reliability, weight and drift, and the decisions', () => {
      const r = arbiter('fit', '--db', db, '--json')
      expect(r.status, r.stderr).toBe(0)
      const fit = JSON.parse(r.stdout) as { method: string; hyperparameters: Record<string, number>; seats: { seat: string; reliability: number; weight: number; drift: { seat: string; flagged: boolean } }[]; metrics: { decided: number } }
      expect(fit.method).toBe('standing-vote') // the default (docs/engine.md §11)
      expect(Object.keys(fit.hyperparameters).sort()).toEqual(['b', 'kappa'])
      expect(fit.seats.map((s) => s.seat)).toEqual(['A1', 'A2', 'A3', 'A4', 'A5'])
      expect(fit.seats[3].weight).toBeLessThan(0)
      expect(fit.seats[4].drift).toMatchObject({ seat: 'A5', flagged: true })
      expect(fit.metrics.decided).toBe(560)
      expect(arbiter('fit', '--db', db, '--method', 'nope').status).toBe(2)
      const missing = arbiter('fit', '--db', backend.missing(dir))
      expect(missing.status, missing.stderr).toBe(2)
    })

    it('decide --beta re-decides under the current fit as a new fit derived from it', async () => {
      const strict = arbiter('decide', '--db', db, '--beta', '0.06', '--bound', 'hoeffding', '--json')
      expect(strict.status, strict.stderr).toBe(0)
      const d = JSON.parse(strict.stdout) as { fit: string; parent: string; metrics: { acted: number; reason: string | null }; resolved: { beta: number; alpha: number } }
      expect(d.resolved.beta).toBe(0.06)
      expect(d.resolved.alpha).toBeCloseTo(0.01, 12)
      expect(d.metrics.acted).toBe(0) // Hoeffding's c_k alone exceeds α = 0.01
      const store = await openStore(db, { readonly: true })
      expect((await store.currentFit())?.parentFitId).toBe(d.parent)
      await store.close()
      expect(arbiter('decide', '--db', db, '--beta', '2').status).toBe(2)
      expect(arbiter('decide', '--db', db, '--beta', '0.1', '--budget-lambda', 'auto').status).toBe(2)
    })

    it('fit --bound and decide --bound: each fit stores and reports the bound it ran with, its budget and acted share; a bad bound is exit 2', async () => {
      type FitJson = { fit: string; parent: string | null; bound: string; budget: unknown; actedShare: number; metrics: { acted: number; decided: number } }
      const h = arbiter('fit', '--db', db, '--bound', 'hoeffding', '--json')
      expect(h.status, h.stderr).toBe(0)
      const f = JSON.parse(h.stdout) as FitJson
      expect(f.bound).toBe('hoeffding')
      expect(f.budget).toEqual({ kind: 'absolute', beta: 0.2 }) // the demo keeps the default budget
      expect(f.actedShare).toBeCloseTo(f.metrics.acted / f.metrics.decided, 12)
      const b = arbiter('decide', '--db', db, '--bound', 'binomial', '--json')
      expect(b.status, b.stderr).toBe(0)
      const d = JSON.parse(b.stdout) as FitJson
      expect([d.bound, d.parent]).toEqual(['binomial', f.fit])
      // Without --bound, decide keeps the current fit's.
      const kept = JSON.parse(arbiter('decide', '--db', db, '--json').stdout) as FitJson
      expect([kept.bound, kept.parent]).toEqual(['binomial', d.fit])
      const store = await openStore(db, { readonly: true })
      expect((await store.getFit(f.fit)).bound).toBe('hoeffding')
      expect((await store.getFit(kept.fit)).bound).toBe('binomial')
      await store.close()
      const text = arbiter('decide', '--db', db, '--bound', 'hoeffding')
      expect(text.status, text.stderr).toBe(0)
      expect(text.stdout).toMatch(/budget β = 0\.20, Hoeffding bound/)
      expect(text.stdout).toMatch(/the share of ALL tasks acted on wrongly stays ≤ 0\.20; every acted answer's bound is ≥ 1 − α = 1 − \(0\.20 − 0\.03 − 0\.02\) = 0\.85/)
      expect(text.stdout).toMatch(/\d+ acted, \d+ deferred, \d+ spot-checked \(acted share \d+\.\d%\)/)
      for (const command of ['fit', 'decide']) {
        const bad = arbiter(command, '--db', db, '--bound', 'bernstein')
        expect(bad.status).toBe(2)
        expect(bad.stderr).toMatch(/--bound must be one of binomial, hoeffding; got "bernstein"/)
      }
    })

    it('export writes exactly the filtered rows, to stdout or a file', async () => {
      expect(arbiter('decide', '--db', db, '--beta', '0.2').status).toBe(0)
      const r = arbiter('export', 'decisions', '--db', db, '--group', 'Trivia', '--decision', 'defer')
      expect(r.status, r.stderr).toBe(0)
      const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { task: string; decision: string })
      const store = await openStore(db, { readonly: true })
      const q = await store.queuePage({ filter: { decision: 'defer', group: 'Trivia', seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 1000 })
      await store.close()
      expect(rows.map((x) => x.task).sort()).toEqual(q.rows.map((x) => x.taskId).sort())
      expect(rows.every((x) => x.decision === 'defer')).toBe(true)
      const out = join(dir, 'labels.csv')
      const l = arbiter('export', 'labels', '--db', db, '--format', 'csv', '--label-source', 'escalation', '--out', out)
      expect(l.status, l.stderr).toBe(0)
      const lines = readFileSync(out, 'utf8').trim().split('\n')
      expect(lines[0]).toBe('task,label,source,reviewer,at,note')
      expect(lines).toHaveLength(41)
      // Flags (arbiter.flags/1): the flags of the filtered tasks, in task-id then recording order.
      const writer = await openStore(db)
      const actor = { reviewer: 'ana', sessionId: 'cli-test', shell: 'cli' as const }
      const flagged = [q.rows[1].taskId, q.rows[0].taskId]
      for (const [i, taskId] of flagged.entries()) await writer.flagTask({ taskId, reason: `reason ${i}, "quoted"` }, actor)
      await writer.close()
      const f = arbiter('export', 'flags', '--db', db, '--flagged')
      expect(f.status, f.stderr).toBe(0)
      const flags = f.stdout.trim().split('\n').map((x) => JSON.parse(x) as Record<string, string>)
      expect(flags.map((x) => [x.task, x.reviewer, x.reason])).toEqual(
        [[flagged[0], 'ana', 'reason 0, "quoted"'], [flagged[1], 'ana', 'reason 1, "quoted"']].sort((x, y) => (x[0] < y[0] ? -1 : 1))
      )
      expect(flags.every((x) => Object.keys(x).join() === 'task,reviewer,reason,at')).toBe(true)
      const fcsv = arbiter('export', 'flags', '--db', db, '--format', 'csv', '--group', 'Trivia')
      expect(fcsv.stdout.split('\n')[0]).toBe('task,reviewer,reason,at')
      expect(fcsv.stdout.trim().split('\n')).toHaveLength(3)
      expect(arbiter('export', 'everything', '--db', db).status).toBe(2)
      expect(arbiter('export', 'decisions', '--db', db, '--decision', 'maybe').status).toBe(2)
    })

    it('import loads traces and labels into a new database once, refuses a bad file whole, and fit, decide, export run on it', async () => {
      const fresh = await newDbLocation()
      const traces = [...cleanCouncil({ tasks: 300, seed: 5 })]
      const traceFile = join(dir, 'council.jsonl')
      writeFileSync(traceFile, traces.map((t) => `${toJsonl(t)}\n`).join(''))
      const r = arbiter('import', traceFile, '--db', fresh, '--json')
      expect(r.status, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'imported', tasks: 300, errorCount: 0 })
      const again = arbiter('import', traceFile, '--db', fresh, '--json')
      expect(again.status, again.stderr).toBe(0)
      expect(JSON.parse(again.stdout)).toMatchObject({ status: 'already-imported' })

      // Half the tasks get their gold as random labels (the calibration set the fit needs).
      const labeled = traces.slice(0, 150)
      const labelFile = join(dir, 'labels.jsonl')
      writeFileSync(labelFile, labeled.map((t) => JSON.stringify({ task: t.task, label: t.gold, source: 'random', reviewer: 'ana', at: '2026-11-30T12:00:00Z' })).join('\n') + '\n')
      const l = arbiter('import', labelFile, '--db', fresh, '--kind', 'labels', '--json')
      expect(l.status, l.stderr).toBe(0)
      expect(JSON.parse(l.stdout)).toMatchObject({ status: 'imported', labels: 150 })

      // A file with one bad line imports nothing: the database is exactly as it was.
      const store = await openStore(fresh, { readonly: true })
      const before = await store.counts()
      const bad = arbiter('import', join(FIX, 'invalid-trace/target-not-earlier.jsonl'), '--db', fresh)
      expect(bad.status).toBe(2)
      expect(bad.stderr).toContain('target-not-earlier')
      expect(await store.counts()).toEqual(before)
      expect(before).toMatchObject({ tasks: 300, labels: 150, labeledTasks: 150 })

      const fit = arbiter('fit', '--db', fresh, '--json')
      expect(fit.status, fit.stderr).toBe(0)
      expect((JSON.parse(fit.stdout) as { metrics: { decided: number } }).metrics.decided).toBe(150)
      const decide = arbiter('decide', '--db', fresh, '--beta', '0.1', '--json')
      expect(decide.status, decide.stderr).toBe(0)
      const counts = await store.counts()
      expect(counts.acted + counts.deferred).toBe(150)
      await store.close()

      const exported = arbiter('export', 'decisions', '--db', fresh)
      expect(exported.status, exported.stderr).toBe(0)
      const rows = exported.stdout.trim().split('\n').map((x) => JSON.parse(x) as { task: string; decision: string; labelSource: string | null })
      expect(rows).toHaveLength(300)
      expect(rows.filter((x) => x.decision === 'human').map((x) => x.task).sort()).toEqual(labeled.map((t) => t.task).sort())
      expect(rows.filter((x) => x.decision === 'act')).toHaveLength(counts.acted)
      expect(rows.filter((x) => x.decision === 'defer')).toHaveLength(counts.deferred)
    })
  })
}

const cluster = usePostgres()

defineCliLoop({ name: 'SQLite', makeDbLocation: sqliteFile('arbiter-cli-loop-'), missing: (dir) => join(dir, 'missing.db'), demoRefusal: /already exists/ })
describeWith(POSTGRES, 'on PostgreSQL', () =>
  defineCliLoop({
    name: 'PostgreSQL',
    makeDbLocation: postgresDatabase(cluster),
    missing: () => {
      const url = new URL(cluster().adminUrl)
      url.pathname = '/arbiter_no_such_database'
      return url.toString()
    },
    demoRefusal: /is not empty/
  })
)
