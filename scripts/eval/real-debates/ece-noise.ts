import { confAndCorrect, eceOf, equalWidthBinsOf, type Prediction } from '../../../src/main/engine'
import { createRng } from '../../../src/main/sim/prng'

/**
 * The calibration yardstick: how large ECE_ew gets from sampling noise alone for these very
 * confidences. Each of `draws` seeded resamples keeps every prediction's top-label confidence and
 * draws its outcome as Bernoulli(confidence) — a perfectly calibrated predictor — then measures
 * ECE_ew; the `quantile` of those values is what a calibrated method could show by chance.
 */
export function eceNoiseQuantile(preds: readonly Prediction[], draws = 200, quantile = 0.9, seed = 0): number {
  const [conf] = confAndCorrect(preds)
  const outcome = new Uint8Array(conf.length)
  const values: number[] = []
  for (let b = 0; b < draws; b++) {
    const rng = createRng(seed, `ece-noise:${b}`)
    for (let i = 0; i < conf.length; i++) outcome[i] = rng.next() < conf[i] ? 1 : 0
    values.push(eceOf(equalWidthBinsOf(conf, outcome), conf.length))
  }
  values.sort((a, b) => a - b)
  return values[Math.min(values.length - 1, Math.ceil(quantile * values.length) - 1)]
}
