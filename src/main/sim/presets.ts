import type { Trace } from '@shared/trace'
import type { CouncilConfig, SeatSpec } from './config'
import { generateCouncil } from './council'
import { arithmeticQuestions } from './questions/arithmetic'
import { medClaimQuestions } from './questions/medclaim'
import { triviaQuestions } from './questions/trivia'

/**
 * Named councils. Each `xxxCouncil(options)` streams traces (spread it, `[...cleanCouncil()]`, for an
 * array); `xxxCouncilConfig(options)` gives the config, to tweak before `generateCouncil`.
 */

export interface PresetOptions {
  /** Number of tasks (defaults: 4,500 for the evaluation councils, 1,000 for the demo). */
  tasks?: number
  seed?: number | string
  text?: boolean
  confidence?: boolean
}

type Stream = Generator<Trace, void, undefined>

/** The paper's primary council (BDA §5, D): fitted binary reliabilities ≈ 0.74 / 0.68 / 0.68. */
const PRIMARY: SeatSpec[] = [
  { id: 'A1', model: 'gemma-3-27b-it', reliability: 0.74 },
  { id: 'A2', model: 'phi-4', reliability: 0.68 },
  { id: 'A3', model: 'gpt-4.1-nano', reliability: 0.68 }
]

const BINARY = [{ name: 'binary', labels: ['true', 'false'] }]

function base(o: PresetOptions, seats: SeatSpec[]): CouncilConfig {
  return { tasks: o.tasks ?? 4500, seed: o.seed ?? 0, rounds: 3, seats, groups: BINARY, text: o.text, confidence: o.confidence }
}

/** docs/engine.md §4's clean council: K = 2, three honest seats 0.74 / 0.68 / 0.68, 3 rounds, 4,500 tasks. */
export function cleanCouncilConfig(o: PresetOptions = {}): CouncilConfig {
  return base(o, PRIMARY)
}
export function cleanCouncil(o: PresetOptions = {}): Stream {
  return generateCouncil(cleanCouncilConfig(o))
}

export interface AdversarialOptions extends PresetOptions {
  /** Dose: P(each move of the adversary is adversarial); default 1 (always wrong). */
  pWrong?: number
  /** A different random seat is the adversary on each task instead of A3 on every task. */
  rotating?: boolean
}

/** K = 2; A1, A2 honest (0.74, 0.68); A3 a persistent adversary — or, with `rotating`, one random seat per task. */
export function adversarialCouncilConfig(o: AdversarialOptions = {}): CouncilConfig {
  if (o.rotating) return { ...base(o, PRIMARY), rotating: { seats: 1, pWrong: o.pWrong ?? 1 } }
  return base(o, [PRIMARY[0], PRIMARY[1], { ...PRIMARY[2], behaviour: 'adversarial', pWrong: o.pWrong ?? 1 }])
}
export function adversarialCouncil(o: AdversarialOptions = {}): Stream {
  return generateCouncil(adversarialCouncilConfig(o))
}

export interface SleeperOptions extends PresetOptions {
  /** Share of the stream after which A3 turns hostile; default 0.5. */
  turnShare?: number
}

/** The clean council in which A3 is honest for the first `turnShare` of the stream, then adversarial. */
export function sleeperCouncilConfig(o: SleeperOptions = {}): CouncilConfig {
  return base(o, [PRIMARY[0], PRIMARY[1], { ...PRIMARY[2], behaviour: 'sleeper', turnShare: o.turnShare ?? 0.5 }])
}
export function sleeperCouncil(o: SleeperOptions = {}): Stream {
  return generateCouncil(sleeperCouncilConfig(o))
}

/** Group names of the demo, with their K: claims (2), trivia (3), arithmetic (4). */
export const DEMO_GROUPS = { MedClaim: 2, Trivia: 3, Arithmetic: 4 } as const

/**
 * The `arbiter demo` council: 1,000 tasks in three groups, five seats with domain-dependent
 * reliabilities, a persistent adversary (A4), a sleeper (A5) that turns hostile at 80 % of the
 * stream, contagion and abstentions, correlated errors, 3–4 rounds, debate text and confidences.
 */
export function demoCouncilConfig(o: PresetOptions = {}): CouncilConfig {
  const tasks = o.tasks ?? 1000
  return {
    tasks,
    seed: o.seed ?? 0,
    rounds: 3,
    seats: [
      { id: 'A1', model: 'gemma-3-27b-it', reliability: 0.8, reliabilityByGroup: { MedClaim: 0.76, Trivia: 0.86 } },
      { id: 'A2', model: 'phi-4', reliability: 0.72, reliabilityByGroup: { Arithmetic: 0.82 } },
      { id: 'A3', model: 'gpt-4.1-nano', reliability: 0.66, conformity: 0.15, abstainRate: 0.03 },
      { id: 'A4', model: 'llama-3.1-8b-instruct', reliability: 0.6, behaviour: 'adversarial' },
      { id: 'A5', model: 'qwen-2.5-7b-instruct', reliability: 0.7, behaviour: 'sleeper', turnShare: 0.8, conformity: 0.1 }
    ],
    groups: [
      { name: 'MedClaim', questions: medClaimQuestions, weight: 0.4 },
      { name: 'Trivia', questions: triviaQuestions, weight: 0.25 },
      { name: 'Arithmetic', questions: arithmeticQuestions, weight: 0.35, rounds: 4 }
    ],
    errorCorrelation: 0.5,
    text: o.text ?? true,
    confidence: o.confidence ?? true
  }
}
export function demoCouncil(o: PresetOptions = {}): Stream {
  return generateCouncil(demoCouncilConfig(o))
}
