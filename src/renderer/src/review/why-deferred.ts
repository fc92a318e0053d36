/**
 * The plain sentence the review screen shows for a deferred task, from the certificate's gap
 * decomposition (docs/engine.md §8.9): at the best round, L = q̂ − b − c_k must reach 1 − α.
 * If the neighbours' own accuracy q̂ already clears the line, only the uncertainty terms hold
 * the task back — more blind labels near this state will help (a review label trains the seat
 * weights, never the certificate: docs/engine.md §10). If q̂ itself is short, the council is
 * simply unreliable in this state and more labels will not make it act.
 */
export interface GapWhy {
  /** The best k at the best round, and the neighbourhood's size n (ties at the radius included; binomial bound only). */
  k?: number
  n?: number
  qhat: number
  bias: number
  conc: number
}

/** "k = 128 neighbours (n = 143 within the radius)"; without n (Hoeffding, older fits) just k. */
export function neighbourhood(why: GapWhy): string | null {
  if (why.k === undefined) return null
  const k = `k = ${why.k} neighbours`
  return why.n === undefined ? k : `${k} (n = ${why.n} within the radius)`
}

/** The calibration set against the engine's minimum for a certificate (docs/engine.md §8.4, §8.7). */
export interface CalibrationNeed {
  size: number
  needed: number
}

/** "needs 160 blind labels before … : it has 0 — 160 more" */
export function calibrationText(c: CalibrationNeed): string {
  const more = Math.max(0, c.needed - c.size)
  return (
    `No certificate yet: it needs at least ${c.needed} blind (random) labels before any task can be acted on, and the calibration set has ${c.size}` +
    ` — ${more} more from Calibrate (a fifth of them fits its model; the rest must hold the smallest neighbourhood).`
  )
}

export function whyDeferred(opts: { threshold: number; why: GapWhy | null; reason: string | null; calibration?: CalibrationNeed | null }): string {
  const { threshold, why, reason, calibration } = opts
  if (calibration) return calibrationText(calibration)
  if (reason === 'alpha-nonpositive') return 'The wrong-action budget is too small for any task to be acted on: raise β in Settings.'
  if (reason === 'no-usable-k') return 'Too few labeled calibration tasks for the certificate (it needs at least 128 outside its model-fitting part) — blind labels in Calibrate will let it start.'
  if (reason === 'insufficient evidence') return 'No budget multiplier λ was feasible on the calibration set, so everything is deferred until more labels arrive.'
  if (!why) return 'No certificate has been computed for this task yet.'
  const { qhat, bias, conc } = why
  if (qhat >= threshold) {
    return conc >= bias
      ? `Too few labeled neighbours near this state (neighbours were right ${pct(qhat)} of the time, but the sample is small): blind labels from Calibrate near it will help. A label you give here can train the seat weights (label policy "all"), never the certificate.`
      : `The council's reliability changes quickly around this state, so nearby labels are only a rough guide (neighbours right ${pct(qhat)}).`
  }
  return `The council is unreliable in this state: tasks like it were answered right only ${pct(qhat)} of the time, below the ${pct(threshold)} needed to act.`
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`
}
