/** The simulator and the MMLU-Pro converter: seeded council traces for tests, demo and benchmarks. */
export type { Behaviour, CouncilConfig, DebateStyle, GroupSpec, QuestionItem, QuestionMaker, SeatSpec } from './config'
export { DEFAULT_STYLE } from './config'
export { generateCouncil, generateCouncilArray } from './council'
export { createRng, type Rng } from './prng'
export { toJsonl } from './jsonl'
export {
  adversarialCouncil,
  adversarialCouncilConfig,
  cleanCouncil,
  cleanCouncilConfig,
  DEMO_GROUPS,
  demoCouncil,
  demoCouncilConfig,
  sleeperCouncil,
  sleeperCouncilConfig,
  type AdversarialOptions,
  type PresetOptions,
  type SleeperOptions
} from './presets'
export { arithmeticQuestions } from './questions/arithmetic'
export { medClaimQuestions } from './questions/medclaim'
export { triviaQuestions } from './questions/trivia'
export { convertMmluPro, MMLU_PRO_PROVENANCE, type MmluProStats, type SeatStats } from './mmlu-pro'
