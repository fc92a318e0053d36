import { describe, expect, it } from 'vitest'
import { axisLow, boundChartGeometry } from '../../../src/renderer/src/review/bound-chart-geometry'

const WIDTH = 400

describe('the bound chart geometry (BoundChart.tsx draws it)', () => {
  it('spans the y axis from just below the lowest bound (0.05 grid) to 1, in four even ticks', () => {
    expect(axisLow([0.66, 0.64, 0.67], 0.97)).toBeCloseTo(0.55, 12)
    // The threshold counts when it is the lowest; the axis never goes below −1.
    expect(axisLow([0.9], 0.8)).toBeCloseTo(0.75, 12)
    expect(axisLow([-3, 0.2], null)).toBe(-1)
    const g = boundChartGeometry({ bound: [0.66, 0.64, 0.67], threshold: 0.97, repeated: null, bestRound: 2 }, WIDTH)
    expect(g.yTicks.map((t) => t.value)).toEqual([0.55, 0.55 + 0.45 / 3, 0.55 + 0.9 / 3, 1].map((v) => expect.closeTo(v, 12)))
    expect(g.yTicks[0].y).toBe(g.plot.bottom)
    expect(g.yTicks[3].y).toBe(g.plot.top)
    expect(g.plot.right).toBeLessThan(WIDTH)
  })

  it('places rounds left to right and bounds bottom to top, the 1 − α line at its height', () => {
    const g = boundChartGeometry({ bound: [0.6, 0.8, 0.7], threshold: 0.9, repeated: null, bestRound: 1 }, WIDTH)
    const xs = g.xTicks.map((t) => t.x)
    expect(xs[0]).toBeLessThan(xs[1])
    expect(xs[1] - xs[0]).toBeCloseTo(xs[2] - xs[1], 9)
    const [a, b, c] = g.points
    expect(b.y).toBeLessThan(c.y)
    expect(c.y).toBeLessThan(a.y)
    expect(g.thresholdY).not.toBeNull()
    expect(g.thresholdY!).toBeLessThan(b.y)
    expect(g.best).toEqual(b)
    expect(g.realPath.startsWith('M')).toBe(true)
    expect(g.realPath.split('L')).toHaveLength(3)
    expect(g.repeatedPath).toBe('')
  })

  it('draws the repeated rounds dashed from the last real round, over a band, and breaks the line at a missing bound', () => {
    const g = boundChartGeometry({ bound: [0.6, null, 0.7, 0.7, 0.7], threshold: 0.95, repeated: { first: 3, last: 4 }, bestRound: 2 }, WIDTH)
    // Round 1 has no bound: the solid line restarts at round 2 and stops there (rounds 3–4 repeat it).
    expect(g.realPath.match(/M/g)).toHaveLength(2)
    expect(g.realPath).not.toContain('L')
    expect(g.repeatedPath.match(/[ML]/g)).toEqual(['M', 'L', 'L'])
    expect(g.points.map((p) => [p.round, p.repeated])).toEqual([[0, false], [2, false], [3, true], [4, true]])
    const band = g.repeatedBand!
    expect(band.x).toBeCloseTo((g.xTicks[2].x + g.xTicks[3].x) / 2, 9)
    expect(band.x + band.width).toBeCloseTo(g.xTicks[4].x, 9)
  })

  it('leaves out a threshold off the axis and a best round without a bound', () => {
    const g = boundChartGeometry({ bound: [0.5, null], threshold: null, repeated: null, bestRound: 1 }, WIDTH)
    expect(g.thresholdY).toBeNull()
    expect(g.best).toBeNull()
    // One round still gets an x axis from 0 to 1 (no division by zero).
    const one = boundChartGeometry({ bound: [0.5], threshold: 0.9, repeated: null, bestRound: 0 }, WIDTH)
    expect(Number.isFinite(one.points[0].x)).toBe(true)
  })

  it('keeps a plot on a panel narrower than its margins', () => {
    const g = boundChartGeometry({ bound: [0.5, 0.6], threshold: 0.9, repeated: null, bestRound: 1 }, 10)
    expect(g.plot.right).toBeGreaterThan(g.plot.left)
    expect(g.points.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y))).toBe(true)
  })
})
