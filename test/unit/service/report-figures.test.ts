/**
 * The HTML report draws each figure as the console's Audit screen does (src/renderer/src/audit/):
 * the reliability diagram, the frontier and each seat's drift as lines with the console's axes and
 * legend names; it names the held-out split evaluation as such beside the live fit's own figures,
 * and marks the method in use.
 */
import { describe, expect, it } from 'vitest'
import type { AuditSummary, FrontierPoint, MethodRow, SeatAuditRow } from '../../../src/shared/api'
import { renderReport } from '../../../src/main/service/audit/report'

const bins = [
  { lo: 0.5, hi: 0.6, count: 12, confidence: 0.55, accuracy: 0.5 },
  { lo: 0.6, hi: 0.7, count: 0, confidence: null, accuracy: null },
  { lo: 0.8, hi: 0.9, count: 31, confidence: 0.86, accuracy: 0.9 },
  { lo: 0.9, hi: 1, count: 57, confidence: 0.95, accuracy: 0.93 }
]
const method = (name: string, reference = false): MethodRow => ({ method: name, n: 100, accuracy: 0.8, brier: 0.2, eceEw: 0.04, eceEm: 0.05, bins, reference, refused: null })
const point = (beta: number, act: number, wa: number): FrontierPoint => ({ beta, act, accAct: act === 0 ? null : 1 - wa / act, wa, waOverBeta: wa / beta, rnd: 2 })
const frontier = [point(0.1, 0, 0), point(0.2, 0.31, 0.04), point(0.3, 0.8, 0.1), point(0.4, 1, 0.12)]

const seat = (id: string, flagged: boolean, noTimeOrder = false): SeatAuditRow => ({
  seat: id, model: null, reliability: 0.7, weight: 0.8, evidence: 50, adversarial: false,
  drift: { recent: 0.5, rest: 0.7, diff: -0.2, floor: 0.05, flagged, noTimeOrder },
  driftChart: noTimeOrder
    ? { noTimeOrder: true, points: [], recentFrom: null }
    : {
        noTimeOrder: false,
        points: [
          { at: '2026-12-01T08:00:00.000Z', reliability: 0.71, tasks: 10 },
          { at: '2026-12-01T11:00:00.000Z', reliability: 0.69, tasks: 10 },
          { at: '2026-12-01T15:00:00.000Z', reliability: 0.4, tasks: 10 }
        ],
        recentFrom: '2026-12-01T12:00:00.000Z'
      },
  confusion: null
})

const summary: AuditSummary = {
  fitId: 'fit-1', methodInUse: 'shared', labeledTasks: 100, randomLabels: 100,
  methods: [method('majority', true), method('gated'), method('shared')],
  actOrDefer: {
    live: { fitId: 'fit-1', decided: 900, acted: 430, act: 430 / 900, rnd: 2.75, beta: 0.2 },
    protocol: '10 seeded 50/50 splits of the 100 random labels', current: point(0.2, 0.31, 0.04), frontier, reason: null
  },
  seats: [seat('A1', false), seat('A2', true), seat('A3', false, true)],
  confusionCandidates: [], reviewers: [], agreement: { reviewers: [], pairs: [], overall: null }, computedAt: '2026-12-01T16:00:00.000Z'
}

const html = renderReport(summary, 'demo.db')
/** The outer <svg>…</svg> of every plot of one kind (the class the report gives its root). */
const plots = (kind: string): string[] => html.match(new RegExp(`<svg [^>]*class="plot-${kind}"[\\s\\S]*?</svg>`, 'g')) ?? []
const section = (id: string): string => html.slice(html.indexOf(`<section id="${id}">`), html.indexOf('</section>', html.indexOf(`<section id="${id}">`)))
const pointsOf = (line: string): number => line.trim().split(/\s+/).length

describe('the report draws the Audit screen’s figures alike', () => {
  it('draws each reliability diagram as a line through the bins, labelled with their counts, as the console does', () => {
    const diagrams = plots('reliability')
    expect(diagrams).toHaveLength(3)
    for (const d of diagrams) {
      expect(d).not.toMatch(/<rect class="bar"/)
      const line = /<polyline class="accuracy" points="([^"]+)"/.exec(d)
      expect(line).not.toBeNull()
      // One point per non-empty bin.
      expect(pointsOf(line![1])).toBe(bins.filter((b) => b.count > 0).length)
      for (const b of bins.filter((x) => x.count > 0)) expect(d).toContain(`>${b.count}</text>`)
      expect(d).toContain('>confidence</text>')
      expect(d).toContain('>accuracy</text>')
      expect(d).toContain('accuracy (n = tasks in bin)')
      expect(d).toContain('perfect calibration')
    }
  })

  it('draws the frontier as the console’s lines: acted share, wrong actions, the β line and the current budget', () => {
    const [chart, ...more] = plots('frontier')
    expect(more).toHaveLength(0)
    const act = /<polyline class="act" points="([^"]+)"/.exec(chart)
    const wa = /<polyline class="wa" points="([^"]+)"/.exec(chart)
    expect(act).not.toBeNull()
    expect(wa).not.toBeNull()
    expect(pointsOf(act![1])).toBe(frontier.length)
    expect(pointsOf(wa![1])).toBe(frontier.length)
    expect(chart).toMatch(/<polyline class="budget" points="[^"]+"/)
    // The console does not draw accuracy-when-acting; the report's table keeps it.
    expect(chart).not.toContain('class="accact"')
    expect(chart).toMatch(/<line class="current" x1="([\d.]+)" x2="\1"/)
    expect(chart).toContain('current β = 0.20')
    for (const label of ['wrong-action budget β', 'share of tasks', 'acted share', 'wrong actions (share of all)', 'β (the budget line)']) expect(chart).toContain(label)
  })

  it('draws each seat’s reliability over label time as a line on a dated axis, the recent window marked', () => {
    const charts = plots('drift')
    // The seat whose labels give no time order gets a sentence, never an invented order.
    expect(charts).toHaveLength(2)
    expect(section('seats')).toContain('No time order')
    for (const c of charts) {
      expect(pointsOf(/<polyline class="reliability[^"]*" points="([^"]+)"/.exec(c)![1])).toBe(3)
      expect(c).toContain('label time on Dec 1 (UTC)')
      expect(c).toContain('recent 20 %')
      expect(c).toContain('reliability per bin of labels')
    }
    expect(charts.filter((c) => c.includes('class="reliability drifting"'))).toHaveLength(1)
  })

  it('leaves out a drift point whose time cannot be placed, instead of failing the whole report', () => {
    const bad = seat('A9', false)
    bad.driftChart.points[1] = { ...bad.driftChart.points[1], at: 'not a time' }
    const report = renderReport({ ...summary, seats: [bad] }, 'demo.db')
    const line = /<polyline class="reliability" points="([^"]+)"/.exec(report)
    expect(pointsOf(line![1])).toBe(2)
  })
})

describe('the report’s act-or-defer section and method in use', () => {
  it('names the held-out split evaluation as such, beside the live fit’s acted share and mean stop round', () => {
    const aod = section('act-or-defer')
    const live = aod.slice(aod.indexOf('id="live-fit"'), aod.indexOf('id="split-eval"'))
    const split = aod.slice(aod.indexOf('id="split-eval"'))
    expect(live).toContain('Live fit: what the console acts on now')
    expect(live).toContain('47.8 % (430)')
    expect(live).toContain('>2.75<')
    expect(live).toContain('>900<')
    expect(split).toContain('Held-out split evaluation')
    expect(split).toContain('31.0 %')
    expect(aod).toContain('Risk–automation frontier (held-out split evaluation)')
  })

  it('says so when no fit has decided the tasks, and still names the split evaluation', () => {
    const aod = renderReport({ ...summary, actOrDefer: { ...summary.actOrDefer, live: null } }, 'demo.db')
    expect(aod).toContain('No fit has decided the tasks yet.')
    expect(aod).toContain('Held-out split evaluation')
  })

  it('marks the method in use, and only it', () => {
    const methods = section('methods')
    const rows = methods.match(/<tr class="in-use">[\s\S]*?<\/tr>/g) ?? []
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatch(/^<tr class="in-use"><td>shared <span class="tag in-use">in use<\/span>/)
    expect(methods.match(/>in use</g)).toHaveLength(1)
  })
})
