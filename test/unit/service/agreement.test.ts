/**
 * Agreement between reviewers: Cohen's and Fleiss' κ against textbook examples, the
 * generalisation to a varying number of raters by hand, the audit's agreement view from votes, and
 * its section of the HTML report (escaped, script-free).
 */
import { describe, expect, it } from 'vitest'
import type { AuditSummary } from '../../../src/shared/api'
import { agreementView } from '../../../src/main/service/audit/agreement'
import { cohenKappa, fleissKappa } from '../../../src/main/service/audit/kappa'
import { renderReport } from '../../../src/main/service/audit/report'
import { agreementSection } from '../../../src/main/service/audit/report/sections'
import type { Vote } from '../../../src/main/store'

/** `n` copies of one pair of labels. */
const times = (n: number, a: string, b: string): [string, string][] => Array.from({ length: n }, () => [a, b])

describe("Cohen's κ", () => {
  it('is 0.4 on Wikipedia’s example: 20 yes–yes, 15 no–no, 5 yes–no, 10 no–yes', () => {
    const k = cohenKappa([...times(20, 'yes', 'yes'), ...times(15, 'no', 'no'), ...times(5, 'yes', 'no'), ...times(10, 'no', 'yes')])
    expect(k.n).toBe(50)
    expect(k.observed).toBeCloseTo(0.7, 12)
    expect(k.expected).toBeCloseTo(0.5, 12)
    expect(k.kappa).toBeCloseTo(0.4, 12)
  })

  it('is 1 for perfect agreement, ≤ 0 for systematic disagreement, undefined when chance agreement is certain', () => {
    expect(cohenKappa([['a', 'a'], ['b', 'b'], ['c', 'c']]).kappa).toBeCloseTo(1, 12)
    expect(cohenKappa([['a', 'b'], ['b', 'a']]).kappa).toBeCloseTo(-1, 12)
    expect(cohenKappa([['a', 'a'], ['a', 'a']])).toEqual({ n: 2, observed: 1, expected: 1, kappa: null })
    expect(cohenKappa([]).kappa).toBeNull()
  })
})

describe("Fleiss' κ", () => {
  it('is 0.210 on Fleiss (1971)’s example as Wikipedia prints it: 10 subjects, 14 raters, 5 categories', () => {
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7]
    ]
    const k = fleissKappa(table)
    expect(k.n).toBe(10)
    expect(k.observed).toBeCloseTo(0.378, 3)
    expect(k.expected).toBeCloseTo(0.213, 3)
    expect(k.kappa).toBeCloseTo(0.21, 3)
  })

  it('generalises to a varying number of raters per item (by hand: κ = −5/13), ignoring items rated once', () => {
    // P_i = 1, 0, 1/3 → P_o = 4/9; p = (mean(1, 1/2, 2/3), mean(0, 1/2, 1/3)) = (13/18, 5/18) → P_e = 97/162.
    const k = fleissKappa([[2, 0], [1, 1], [2, 1], [1, 0]])
    expect(k.n).toBe(3)
    expect(k.observed).toBeCloseTo(4 / 9, 12)
    expect(k.expected).toBeCloseTo(97 / 162, 12)
    expect(k.kappa).toBeCloseTo(-5 / 13, 12)
    expect(fleissKappa([[1, 0]]).kappa).toBeNull()
    expect(fleissKappa([[3, 0], [2, 0]]).kappa).toBeNull()
  })

  it('equals Scott’s π for two raters: Wikipedia’s Cohen example gives (0.7 − 0.505) / 0.495', () => {
    const rows = [...times(20, 'yes', 'yes'), ...times(15, 'no', 'no'), ...times(5, 'yes', 'no'), ...times(10, 'no', 'yes')]
    const k = fleissKappa(rows.map(([a, b]) => [Number(a === 'yes') + Number(b === 'yes'), Number(a === 'no') + Number(b === 'no')]))
    expect(k.kappa).toBeCloseTo((0.7 - 0.505) / 0.495, 12)
  })
})

describe('the audit’s agreement view', () => {
  const votes = (rows: [string, string, string][]): Vote[] => rows.map(([taskId, reviewer, label]) => ({ taskId, reviewer, label }))

  it('gives Cohen’s κ per pair over the tasks both labeled and Fleiss’ κ over all, reviewers sorted', () => {
    const v = agreementView(votes([
      ['t1', 'bo', 'x'], ['t1', 'ana', 'x'], ['t1', 'cy', 'y'],
      ['t2', 'ana', 'y'], ['t2', 'bo', 'y'],
      ['t3', 'ana', 'x'], ['t3', 'cy', 'x'],
      ['t4', 'bo', 'x'] // alone: not rated
    ]))
    expect(v.reviewers).toEqual(['ana', 'bo', 'cy'])
    expect(v.pairs.map((p) => [p.a, p.b, p.tasks])).toEqual([['ana', 'bo', 2], ['ana', 'cy', 2], ['bo', 'cy', 1]])
    const ab = v.pairs[0]
    expect(ab.kappa).toBeCloseTo(cohenKappa([['x', 'x'], ['y', 'y']]).kappa ?? NaN, 12)
    expect(ab.kappa).toBeCloseTo(1, 12)
    expect(v.pairs[1]).toMatchObject({ observed: 0.5, kappa: cohenKappa([['x', 'y'], ['x', 'x']]).kappa })
    expect(v.overall).toMatchObject({ tasks: 3, minRaters: 2, maxRaters: 3 })
    expect(v.overall?.kappa).toBeCloseTo(fleissKappa([[2, 1], [0, 2], [2, 0]]).kappa ?? NaN, 12)
  })

  it('is empty without a task two reviewers labeled', () => {
    expect(agreementView(votes([['t1', 'ana', 'x']]))).toEqual({ reviewers: [], pairs: [], overall: null })
  })
})

describe('the report’s agreement section', () => {
  it('prints κ per pair and overall, escaping reviewer names, in a script-free report', () => {
    const agreement = agreementView([
      { taskId: 't1', reviewer: '<b>ana</b>', label: 'x' }, { taskId: 't1', reviewer: 'bo', label: 'x' },
      { taskId: 't2', reviewer: '<b>ana</b>', label: 'y' }, { taskId: 't2', reviewer: 'bo', label: 'x' }
    ])
    const html = agreementSection(agreement)
    expect(html).toContain('&lt;b&gt;ana&lt;/b&gt;')
    expect(html).not.toContain('<b>ana')
    expect(html).toContain("Fleiss' κ")
    expect(html).toContain("Cohen's κ")
    const pair = agreement.pairs[0]
    expect(html).toContain(`<td class="n">${pair.observed.toFixed(3)}</td>`)
    expect(html).toContain(`<td class="n">${(pair.kappa as number).toFixed(3)}</td>`)
    expect(agreementSection({ reviewers: [], pairs: [], overall: null })).toContain('No task has labels from two reviewers yet.')

    const summary: AuditSummary = {
      fitId: null, methodInUse: 'gated', labeledTasks: 0, randomLabels: 0, methods: [],
      actOrDefer: { live: null, protocol: 'none', current: null, frontier: [], reason: 'no labels' },
      seats: [], confusionCandidates: [], reviewers: [], agreement, computedAt: '2026-11-30T12:00:00.000Z'
    }
    const report = renderReport(summary, 'db')
    expect(report).toContain('<section id="agreement">')
    expect(report).not.toMatch(/<script/i)
    expect(report).not.toContain('<b>ana')
  })
})
