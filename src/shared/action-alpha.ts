/**
 * The budget decomposition β = δ + α + ε_act (docs/engine.md §8.8): α = β − (δ + ε_act), computed
 * in this one order everywhere. Floating point makes the order matter at the edge: with the
 * defaults, β = 0.05 gives α = 0 (everything deferred) this way but 3.5e-18 as β − δ − ε_act, so a
 * text written the other way promised a threshold the engine never uses.
 */
export function actionAlpha(beta: number, delta: number, epsAct: number): number {
  return beta - (delta + epsAct)
}
