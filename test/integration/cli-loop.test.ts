/**
 * The database commands through the real entry point (FORMATS.md CLI contract): `demo`, `fit
 * --json`, `decide --beta`, `export` with a filter, and their exit codes.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from '../../src/main/store'

const ROOT = join(__dirname, '../..')
let dir: string
let db: string

function arbiter(...argv: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['src/main/cli/index.ts', ...argv], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-cli-loop-'))
  db = join(dir, 'arbiter.db')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('arbiter demo, fit, decide, export', () => {
  it('demo creates a fitted, decided database once, and refuses an existing one', () => {
    const r = arbiter('demo', '--db', db, '--json')
    expect(r.status, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as { tasks: number; acted: number; deferred: number }
    expect(report.tasks).toBe(1000)
    expect(report.acted + report.deferred).toBe(560)
    const again = arbiter('demo', '--db', db)
    expect(again.status).toBe(2)
    expect(again.stderr).toMatch(/already exists/)
  })

  it('fit --json prints hyperparameters, each seat’s reliability, weight and drift, and the decisions', () => {
    const r = arbiter('fit', '--db', db, '--json')
    expect(r.status, r.stderr).toBe(0)
    const fit = JSON.parse(r.stdout) as { method: string; hyperparameters: Record<string, number>; seats: { seat: string; reliability: number; weight: number; drift: { seat: string; flagged: boolean } }[]; metrics: { decided: number } }
    expect(fit.method).toBe('per-agent')
    expect(Object.keys(fit.hyperparameters).sort()).toEqual(['b', 'kappa', 's'])
    expect(fit.seats.map((s) => s.seat)).toEqual(['A1', 'A2', 'A3', 'A4', 'A5'])
    expect(fit.seats[3].weight).toBeLessThan(0)
    expect(fit.seats[4].drift).toMatchObject({ seat: 'A5', flagged: true })
    expect(fit.metrics.decided).toBe(560)
    expect(arbiter('fit', '--db', db, '--method', 'nope').status).toBe(2)
    expect(arbiter('fit', '--db', join(dir, 'missing.db')).status).toBe(2)
  })

  it('decide --beta re-decides under the current fit as a new fit derived from it', async () => {
    const strict = arbiter('decide', '--db', db, '--beta', '0.06', '--json')
    expect(strict.status, strict.stderr).toBe(0)
    const d = JSON.parse(strict.stdout) as { fit: string; parent: string; metrics: { acted: number; reason: string | null }; resolved: { beta: number; alpha: number } }
    expect(d.resolved.beta).toBe(0.06)
    expect(d.resolved.alpha).toBeCloseTo(0.01, 12)
    expect(d.metrics.acted).toBe(0) // c_k alone exceeds α = 0.01
    const store = await openStore(db, { readonly: true })
    expect((await store.currentFit())?.parentFitId).toBe(d.parent)
    await store.close()
    expect(arbiter('decide', '--db', db, '--beta', '2').status).toBe(2)
    expect(arbiter('decide', '--db', db, '--beta', '0.1', '--budget-lambda', 'auto').status).toBe(2)
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
    expect(arbiter('export', 'everything', '--db', db).status).toBe(2)
    expect(arbiter('export', 'decisions', '--db', db, '--decision', 'maybe').status).toBe(2)
  })
})
