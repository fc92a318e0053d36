import { describe, expect, it } from 'vitest'
import { boundLabel, budgetLabel, budgetMeaning } from '../../src/shared/budget-text'
import { actionAlpha } from '../../src/main/engine/certificate/budget'
import { neighbourhood, whyDeferred } from '../../src/renderer/src/review/why-deferred'

describe('what β means, in words (Settings, fit, decide)', () => {
  it('says both terms, with the threshold 1 − α = 1 − (β − δ − ε_act) worked out for a number', () => {
    expect(budgetMeaning(0.2, 0.03, 0.02)).toBe(
      'In expectation over the calibration draw, and provided the random labels are a uniform blind sample, the share of ALL tasks ' +
        "acted on wrongly stays ≤ 0.20; every acted answer's bound is ≥ 1 − α = 1 − (0.20 − 0.03 − 0.02) = 0.85."
    )
    expect(budgetMeaning(0.3, 0.05, 0)).toContain('≥ 1 − α = 1 − (0.30 − 0.05 − 0.00) = 0.75.')
    // A budget worked out at each fit (relative, λ = auto) keeps the formula.
    expect(budgetMeaning(null, 0.03, 0.02)).toContain('stays ≤ β; every acted answer\'s bound is ≥ 1 − α = 1 − (β − 0.03 − 0.02).')
    expect(budgetMeaning(0.04, 0.03, 0.02)).toContain('unreachable (α ≤ 0: everything is deferred)')
  })

  it('agrees with the engine at the edge: β = δ + ε_act defers everything (α = 0, not a float crumb above it)', () => {
    expect(actionAlpha(0.05, 0.03, 0.02)).toBe(0)
    expect(budgetMeaning(0.05, 0.03, 0.02)).toContain('= unreachable (α ≤ 0: everything is deferred)')
    expect(budgetMeaning(0.05, 0.03, 0.02)).not.toContain('= 1.00')
  })

  it('names each budget kind and bound', () => {
    expect(budgetLabel({ kind: 'absolute', beta: 0.2 })).toBe('β = 0.20')
    expect(budgetLabel({ kind: 'relative', lambda: 1.5 })).toBe('β = 1.5 · ê_T (relative)')
    expect(budgetLabel({ kind: 'auto' })).toMatch(/^λ = auto/)
    expect(boundLabel('binomial')).toMatch(/binomial/)
    expect(boundLabel('hoeffding')).toMatch(/Hoeffding/)
  })
})

describe('the Review screen’s why', () => {
  it('shows n beside k when the fit reported it, and k alone otherwise', () => {
    expect(neighbourhood({ k: 128, n: 143, qhat: 0.9, bias: 0, conc: 0.1 })).toBe('k = 128 neighbours (n = 143 within the radius)')
    expect(neighbourhood({ k: 256, qhat: 0.9, bias: 0, conc: 0.1 })).toBe('k = 256 neighbours')
    expect(neighbourhood({ qhat: 0.9, bias: 0, conc: 0.1 })).toBeNull()
    expect(whyDeferred({ threshold: 0.85, why: { k: 128, n: 143, qhat: 0.8, bias: 0, conc: 0.1 }, reason: null })).toMatch(/right only 80\.0% of the time/)
  })
})
