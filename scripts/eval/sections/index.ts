import type { EvalSection } from '../section'
import { aggregation } from './aggregation'
import { certificate } from './certificate'
import { realDebates } from './real-debates'

/** Every section of `npm run eval`, in the order it runs them (one import and one entry each). */
export const SECTIONS: EvalSection[] = [
  aggregation,
  certificate,
  realDebates
]
