/**
 * The audit: `audit.summary` on the demo database returns every part with data,
 * its numbers are the engine's own (nested CV + scores, the certifySplits protocol), it is cached
 * until the labels change, and `arbiter report` writes the same audit as one self-contained HTML
 * file that escapes hostile text from the database.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditSummary } from '../../src/shared/api'
import {
  accuracy, brier, certifySplits, eceEm, eceEw, equalWidthBins, nestedCv
} from '../../src/main/engine'
import { dispatch } from '../../src/main/host/dispatch'
import { createService, type Service } from '../../src/main/service'
import { AUDIT_METHODS } from '../../src/main/service/audit/methods'
import { FRONTIER_BETAS, MIN_RANDOM_LABELS } from '../../src/main/service/audit/act-or-defer'
import { esc } from '../../src/main/service/audit/report/text'
import { createDemoDatabase, DEMO_ESCALATIONS, DEMO_RANDOM_LABELS } from '../../src/main/service/demo'
import { DEFAULT_ENGINE_SETTINGS } from '../../src/shared/api'

/** The demo runs on the default budget and bound (β = 0.20, binomial). */
const DEMO_BUDGET = DEFAULT_ENGINE_SETTINGS.budget as { kind: 'absolute'; beta: number }
import { loadCorpus } from '../../src/main/service/fit/corpus'
import { openStore } from '../../src/main/store'

const ROOT = join(__dirname, '../..')
let dir: string
let dbLocation: string
let service: Service
let summary: AuditSummary
let firstCallMs: number

async function call<T = unknown>(method: string, args: unknown = {}): Promise<T> {
  const env = await dispatch(service.handlers, method, args, service.context())
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error)
  return env.value as T
}

function arbiter(...argv: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['src/main/cli/index.ts', ...argv], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
}

/**
 * Plots the report must draw for a summary: a reliability diagram per scored method, the frontier, a drift chart per seat
 * whose labels are in time order (as the Audit screen), the weights, a heatmap per seat with a matrix.
 */
function expectedPlots(a: AuditSummary): number {
  return a.methods.filter((m) => m.refused === null && m.n > 0).length + (a.actOrDefer.frontier.length > 0 ? 1 : 0) +
    a.seats.filter((s) => !s.driftChart.noTimeOrder && s.driftChart.points.length > 0).length +
    (a.seats.some((s) => s.weight !== null) ? 1 : 0) + a.seats.filter((s) => s.confusion !== null).length
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-audit-'))
  dbLocation = join(dir, 'demo.db')
  await createDemoDatabase(dbLocation)
  service = await createService({ store: await openStore(dbLocation), dbLocation, nativeBinding: null, shell: 'web' })
  // The undo test below must not start a background refit.
  await call('engine.updateSettings', { patch: { autoRefit: false } })
  const t0 = performance.now()
  summary = await call<AuditSummary>('audit.summary')
  firstCallMs = performance.now() - t0
}, 60_000) // builds the 1,000-task demo (two fits): over the 10 s default on a loaded machine

afterAll(async () => {
  await service.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('audit.summary on the demo database', () => {
  it('scores every method by nested CV, with reliability bins that hold every task; confusion is refused with the reason', () => {
    console.info(`audit.summary on the demo database: ${firstCallMs.toFixed(0)} ms (worker thread, first call)`)
    expect(summary.labeledTasks).toBe(DEMO_RANDOM_LABELS + DEMO_ESCALATIONS)
    expect(summary.randomLabels).toBe(DEMO_RANDOM_LABELS)
    expect(summary.methods.map((m) => m.method)).toEqual([...AUDIT_METHODS])
    expect(AUDIT_METHODS.slice(0, 3)).toEqual(['majority', 'majority-final', 'best-seat'])
    expect(summary.methods.filter((m) => m.reference).map((m) => m.method)).toEqual(['majority', 'majority-final', 'best-seat'])
    for (const m of summary.methods) {
      if (m.method === 'confusion') continue
      expect(m.refused, m.method).toBeNull()
      expect(m.bins).toHaveLength(10)
      expect(m.bins.reduce((s, b) => s + b.count, 0), m.method).toBe(m.n)
      expect(m.accuracy).toBeGreaterThan(0.5)
    }
    // Every row is out of fold over every labeled task — best-seat too (its seat picked per training part).
    for (const m of summary.methods) if (m.refused === null) expect(m.n).toBe(summary.labeledTasks)
    const confusion = summary.methods.find((m) => m.method === 'confusion')
    expect(confusion?.refused).toMatch(/share one candidate set: task ".+" has/)
    expect(confusion?.bins).toEqual([])
    // The supervised models beat the majority reference on this council (it has an adversary).
    const acc = (name: string) => summary.methods.find((m) => m.method === name)?.accuracy ?? 0
    expect(acc('per-agent')).toBeGreaterThan(acc('majority'))
  })

  it('measures act-or-defer on the random labels: the current budget and a frontier whose Act never falls as β grows', () => {
    const a = summary.actOrDefer
    expect(a.reason).toBeNull()
    expect(a.protocol).toContain(`${DEMO_RANDOM_LABELS} random labels`)
    expect(a.frontier.map((p) => p.beta)).toEqual([...FRONTIER_BETAS])
    expect(FRONTIER_BETAS).toEqual([0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5])
    for (let i = 1; i < a.frontier.length; i++) expect(a.frontier[i].act).toBeGreaterThanOrEqual(a.frontier[i - 1].act)
    expect(a.frontier[a.frontier.length - 1].act).toBeGreaterThan(0)
    expect(a.current).not.toBeNull()
    expect(a.current?.beta).toBe(DEMO_BUDGET.beta)
    // The sweep and the budget point decide the same prepared batches: at β = 0.2 they agree.
    expect(a.frontier.find((p) => p.beta === DEMO_BUDGET.beta)).toEqual(a.current)
    for (const p of a.frontier) expect(p.wa).toBeLessThanOrEqual(p.beta)
  })

  it('reports the seats of the current fit: the persistent adversary weighs negatively, the sleeper’s drift as the fit flags it', async () => {
    const current = (await call<{ id: string; current: boolean }[]>('fits.list')).find((f) => f.current)
    expect(summary.fitId).toBe(current?.id)
    const fit = await call<{ seats: { seat: string; weight: number; drift: { flagged: boolean } | null }[] }>('fits.get', { fitId: current?.id })
    expect(summary.seats.map((s) => s.seat)).toEqual(fit.seats.map((s) => s.seat))
    const a4 = summary.seats.find((s) => s.seat === 'A4')
    expect(a4?.weight).toBeLessThan(0)
    expect(a4?.adversarial).toBe(true)
    const a5 = summary.seats.find((s) => s.seat === 'A5')
    expect(a5?.drift?.flagged).toBe(fit.seats.find((s) => s.seat === 'A5')?.drift?.flagged)
    expect(a5?.drift?.flagged).toBe(true)
    const K = summary.confusionCandidates.length
    expect(K).toBeGreaterThanOrEqual(2)
    for (const s of summary.seats) {
      expect(s.evidence, s.seat).toBeGreaterThan(0)
      expect(s.confusion).toHaveLength(K)
      for (const row of s.confusion ?? []) expect(row.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12)
    }
    // A4 argues against the truth: it endorses the right answer less often than the others.
    const diag = (m: number[][] | null) => (m ?? []).reduce((s, row, i) => s + row[i], 0) / K
    expect(diag(a4?.confusion ?? null)).toBeLessThan(diag(summary.seats.find((s) => s.seat === 'A1')?.confusion ?? null))
  })

  it('counts labels by reviewer and source', () => {
    expect(summary.reviewers).toEqual([
      { reviewer: 'demo:calibrate', random: DEMO_RANDOM_LABELS, escalation: 0, undone: 0, draws: 0, skips: 0 },
      { reviewer: 'demo:reviewer', random: 0, escalation: DEMO_ESCALATIONS, undone: 0, draws: 0, skips: 0 }
    ])
  })

  it('gives the numbers of the engine’s own nestedCv and scores, and of certifySplits, on the same labeled sets', async () => {
    const store = await openStore(dbLocation, { readonly: true })
    const corpus = await loadCorpus(store, { reviewer: 'test', sessionId: 'test', shell: 'cli' })
    await store.close()
    const labeled = corpus.tasks.filter((t) => t.gold >= 0)
    const { predictions } = nestedCv('per-agent', labeled, 5, 0, { pool: corpus.tasks, labels: labeled[0].candidates })
    const row = summary.methods.find((m) => m.method === 'per-agent')
    expect(row).toMatchObject({ n: predictions.length, accuracy: accuracy(predictions), brier: brier(predictions), eceEw: eceEw(predictions), eceEm: eceEm(predictions) })
    expect(row?.bins.map((b) => b.count)).toEqual(equalWidthBins(predictions).map((b) => b.n))

    const random = labeled.filter((t) => corpus.labels.get(t.task)?.source === 'random')
    const { report } = certifySplits({
      method: DEFAULT_ENGINE_SETTINGS.method, labeled: random, splits: 10, seed: 0, budget: DEMO_BUDGET, state: DEFAULT_ENGINE_SETTINGS.state,
      options: { delta: 0.03, epsAct: 0.02 }, bound: DEFAULT_ENGINE_SETTINGS.bound, spotRate: 0.05, fitOptions: { pool: corpus.tasks, labels: random[0].candidates }
    })
    expect(summary.actOrDefer.current?.act).toBeCloseTo(report.mean.act as number, 12)
    expect(summary.actOrDefer.current?.wa).toBeCloseTo(report.mean.wa as number, 12)
    expect(summary.actOrDefer.current?.accAct).toBeCloseTo(report.mean.accAct as number, 12)
  })

  it('is cached: opening the screen again is free, and a label (or its undo) recomputes it', async () => {
    // The same computation instant: served from the cache, not recomputed.
    const again = await call<AuditSummary>('audit.summary')
    expect(again.computedAt).toBe(summary.computedAt)

    const page = await call<{ rows: { taskId: string; version: number; candidates: string[] }[] }>('queue.page', { limit: 1 })
    const task = page.rows[0]
    const first = await call<{ labelId: string; version: number }>('labels.resolve', { taskId: task.taskId, label: task.candidates[0], expectedVersion: task.version })
    const labeled = await call<AuditSummary>('audit.summary')
    expect(labeled.computedAt).not.toBe(summary.computedAt)
    expect(labeled.labeledTasks).toBe(summary.labeledTasks + 1)
    await call('labels.undo', { labelId: first.labelId, expectedVersion: first.version })
    const undone = await call<AuditSummary>('audit.summary')
    expect(undone.labeledTasks).toBe(summary.labeledTasks)
    const me = undone.reviewers.find((r) => r.reviewer === service.context().reviewer)
    expect(me).toMatchObject({ random: 0, escalation: 0, undone: 1 })
  })
})

describe('arbiter report', () => {
  it('writes one self-contained HTML file: an <svg> per plot, no script, nothing fetched', () => {
    const out = join(dir, 'report.html')
    const r = arbiter('report', '--db', dbLocation, '--out', out, '--json')
    expect(r.status, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ out, fit: summary.fitId })
    const html = readFileSync(out, 'utf8')
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html.match(/<svg\b/g)?.length).toBe(expectedPlots(summary))
    expect(expectedPlots(summary)).toBeGreaterThanOrEqual(6 + 1 + 1 + 5)
    expect(html).not.toMatch(/<script|javascript:|\son\w+\s*=|<link|<img|<iframe|@import|url\(|\ssrc=|\shref=/i)
    expect(html).toContain("default-src 'none'")
    for (const m of summary.methods) expect(html).toContain(esc(m.method))
    expect(html).toContain('risk–automation frontier')
  })

  it('exits 2 without --out, on a missing database or a missing output folder', () => {
    expect(arbiter('report', '--db', dbLocation).status).toBe(2)
    expect(arbiter('report', '--db', join(dir, 'missing.db'), '--out', join(dir, 'x.html')).status).toBe(2)
    expect(arbiter('report', '--db', dbLocation, '--out', join(dir, 'no-such-folder', 'x.html')).status).toBe(2)
  })
})

describe('hostile text in the report', () => {
  const HOSTILE = '<img src=x onerror=alert(1)>'
  const CANDIDATE = '<script>alert("c")</script>'
  const REVIEWER = '<b onmouseover="x">bo</b>'

  it('escapes seat ids, models, candidates, questions and reviewer names from the database, agreement included', async () => {
    const tiny = join(dir, 'tiny')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(tiny)
    const candidates = [CANDIDATE, 'plain & "quoted"']
    const seats = [{ id: HOSTILE, model: `model ${HOSTILE}` }, { id: 'B', model: 'b' }, { id: 'C', model: 'c' }]
    // Seat HOSTILE is right on 4 of 5 tasks, B on 3 of 4, C wrong on 3 of 4: every seat gets a weight.
    const lines = Array.from({ length: 40 }, (_, i) => {
      const gold = candidates[i % 2]
      const wrong = candidates[1 - (i % 2)]
      const answers = [i % 5 === 0 ? wrong : gold, i % 4 === 0 ? wrong : gold, i % 4 === 0 ? gold : wrong]
      const moves = seats.map((s, j) => ({ id: `m${j}`, round: 0, seat: s.id, force: 'propose', answer: answers[j], text: HOSTILE }))
      return JSON.stringify({ task: `t-${String(i).padStart(2, '0')}`, question: HOSTILE, candidates, gold, group: HOSTILE, seats, moves })
    })
    // The file name becomes the reviewer of the --gold-as labels: import:<file name>.
    const file = join(tiny, `${HOSTILE}.jsonl`)
    writeFileSync(file, `${lines.join('\n')}\n`)
    const db = join(tiny, 'tiny.db')
    const imported = arbiter('import', file, '--db', db, '--gold-as', 'random')
    expect(imported.status, imported.stderr).toBe(0)
    // A second (hostile) reviewer labels ten tasks blind, agreeing with the gold: the agreement section names both.
    const second = join(tiny, 'second.labels.jsonl')
    const labels = Array.from({ length: 10 }, (_, i) =>
      JSON.stringify({ format: 'arbiter.labels/1', task: `t-${String(i).padStart(2, '0')}`, label: candidates[i % 2], source: 'random', reviewer: REVIEWER, at: '2026-11-30T12:00:00Z' }))
    writeFileSync(second, `${labels.join('\n')}\n`)
    const labeled = arbiter('import', second, '--db', db, '--kind', 'labels')
    expect(labeled.status, labeled.stderr).toBe(0)
    const fitted = arbiter('fit', '--db', db)
    expect(fitted.status, fitted.stderr).toBe(0)
    const out = join(tiny, 'report.html')
    const r = arbiter('report', '--db', db, '--out', out)
    expect(r.status, r.stderr).toBe(0)
    const html = readFileSync(out, 'utf8')
    expect(html).not.toContain(HOSTILE)
    expect(html).not.toContain(CANDIDATE)
    expect(html).not.toMatch(/<script|<img/i)
    expect(html).toContain(esc(HOSTILE))
    expect(html).toContain(esc(`model ${HOSTILE}`))
    expect(html).toContain(esc(CANDIDATE))
    expect(html).toContain(esc(`import:${HOSTILE}.jsonl`))
    expect(html).not.toContain(REVIEWER)
    const agreement = html.slice(html.indexOf('<section id="agreement">'))
    // Reviewers in code-point order: '<' before 'i'.
    expect(agreement).toContain(`<td>${esc(REVIEWER)}</td><td>${esc(`import:${HOSTILE}.jsonl`)}</td><td class="n">10</td><td class="n">1.000</td>`)
    // 40 random labels are too few for the certificate: the report says how many are needed.
    expect(html).toContain(`40 of the ${MIN_RANDOM_LABELS} needed`)
    expect(html.match(/<svg\b/g)?.length).toBeGreaterThanOrEqual(3)
  })
})
