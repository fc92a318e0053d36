import { DEFAULT_STYLE, type CouncilConfig, type DebateStyle, type QuestionMaker } from './config'

/**
 * Validates a CouncilConfig and flattens it into typed arrays, so the per-task loop of a
 * million-task run does no lookups, defaulting or allocation for configuration.
 */

export const HONEST = 0
export const ADVERSARIAL = 1
export const SLEEPER = 2

export interface ResolvedGroup {
  name: string
  slug: string
  /** Fixed candidates; null when `questions` makes them. */
  labels: string[] | null
  questions: QuestionMaker | null
  rounds: number
  /** Cumulative normalised weight, for picking a group with one uniform draw. */
  cumWeight: number
  /** Honest reliability of each seat in this group. */
  reliability: Float64Array
}

export interface ResolvedCouncil {
  tasks: number
  seed: number | string
  seatIds: string[]
  seatModels: (string | undefined)[]
  behaviour: Uint8Array
  /** First hostile task index (sleepers); +Infinity for everyone else. */
  turnAt: Float64Array
  pWrong: Float64Array
  conformity: Float64Array
  abstainRate: Float64Array
  groups: ResolvedGroup[]
  maxRounds: number
  rotatingSeats: number
  rotatingPWrong: number
  errorCorrelation: number
  style: DebateStyle
  confidence: boolean
  text: boolean
  taskPrefix: string | null
  /** Zero-padding of the per-group task counter. */
  idWidth: number
}

function prob(value: number | undefined, fallback: number, what: string): number {
  const v = value ?? fallback
  if (!(v >= 0 && v <= 1)) throw new RangeError(`sim: ${what} must be in [0, 1], got ${v}`)
  return v
}

function rounds(value: number | undefined, fallback: number, what: string): number {
  const v = value ?? fallback
  if (!Number.isInteger(v) || v < 1 || v > 4) throw new RangeError(`sim: ${what} must be an integer 1–4, got ${v}`)
  return v
}

export function slug(name: string): string {
  const s = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  return s === '' ? 'task' : s
}

/** Default candidates for a group given only K: true/false for binary claims, letters otherwise. */
export function defaultLabels(k: number): string[] {
  if (k === 2) return ['true', 'false']
  return Array.from({ length: k }, (_, i) => String.fromCharCode(65 + i))
}

/** @throws RangeError naming the offending field. */
export function resolveCouncil(config: CouncilConfig): ResolvedCouncil {
  const { tasks, seats } = config
  if (!Number.isInteger(tasks) || tasks < 0) throw new RangeError(`sim: tasks must be a non-negative integer, got ${tasks}`)
  if (seats.length === 0) throw new RangeError('sim: at least one seat is needed')
  const ids = new Set<string>()
  for (const s of seats) {
    if (s.id === '' || ids.has(s.id)) throw new RangeError(`sim: seat ids must be unique and non-empty ("${s.id}")`)
    ids.add(s.id)
  }
  const n = seats.length
  const behaviour = new Uint8Array(n)
  const turnAt = new Float64Array(n).fill(Infinity)
  const pWrong = new Float64Array(n)
  const conformity = new Float64Array(n)
  const abstainRate = new Float64Array(n)
  seats.forEach((s, i) => {
    prob(s.reliability, 0, `seat ${s.id} reliability`)
    const b = s.behaviour ?? 'honest'
    behaviour[i] = b === 'adversarial' ? ADVERSARIAL : b === 'sleeper' ? SLEEPER : HONEST
    if (b === 'sleeper') {
      if ((s.turnAt === undefined) === (s.turnShare === undefined))
        throw new RangeError(`sim: sleeper ${s.id} needs exactly one of turnAt, turnShare`)
      const at = s.turnAt ?? Math.round(prob(s.turnShare, 0, `seat ${s.id} turnShare`) * tasks)
      if (!Number.isInteger(at) || at < 0) throw new RangeError(`sim: seat ${s.id} turnAt must be a task index, got ${at}`)
      turnAt[i] = at
    }
    pWrong[i] = prob(s.pWrong, 1, `seat ${s.id} pWrong`)
    conformity[i] = prob(s.conformity, 0, `seat ${s.id} conformity`)
    abstainRate[i] = prob(s.abstainRate, 0, `seat ${s.id} abstainRate`)
  })

  const maxDefault = rounds(config.rounds, 3, 'rounds')
  const specs = config.groups ?? [{ name: 'binary', labels: defaultLabels(2) }]
  if (specs.length === 0) throw new RangeError('sim: groups must not be empty')
  const totalWeight = specs.reduce((sum, g) => sum + (g.weight ?? 1), 0)
  let cum = 0
  const groups = specs.map((g): ResolvedGroup => {
    const w = g.weight ?? 1
    if (!(w > 0)) throw new RangeError(`sim: group ${g.name} weight must be > 0`)
    cum += w / totalWeight
    let labels: string[] | null = null
    if (!g.questions) {
      labels = g.labels ?? defaultLabels(g.k ?? 2)
      if (labels.length < 2 || new Set(labels).size !== labels.length)
        throw new RangeError(`sim: group ${g.name} needs ≥ 2 distinct candidates`)
    }
    const reliability = Float64Array.from(seats, (s) =>
      prob(s.reliabilityByGroup?.[g.name], s.reliability, `seat ${s.id} reliability in ${g.name}`)
    )
    return { name: g.name, slug: slug(g.name), labels, questions: g.questions ?? null, rounds: rounds(g.rounds, maxDefault, `group ${g.name} rounds`), cumWeight: cum, reliability }
  })
  groups[groups.length - 1].cumWeight = 1 // guard against float round-off in the cumulative sum

  const rotatingSeats = config.rotating ? (config.rotating.seats ?? 1) : 0
  if (!Number.isInteger(rotatingSeats) || rotatingSeats < 0 || rotatingSeats > n)
    throw new RangeError(`sim: rotating.seats must be an integer 0–${n}`)

  const style: DebateStyle = { ...DEFAULT_STYLE, ...config.style }
  for (const [key, v] of Object.entries(style)) prob(v, 0, `style.${key}`)

  return {
    tasks,
    seed: config.seed,
    seatIds: seats.map((s) => s.id),
    seatModels: seats.map((s) => s.model),
    behaviour,
    turnAt,
    pWrong,
    conformity,
    abstainRate,
    groups,
    maxRounds: Math.max(...groups.map((g) => g.rounds)),
    rotatingSeats,
    rotatingPWrong: prob(config.rotating?.pWrong, 1, 'rotating.pWrong'),
    errorCorrelation: prob(config.errorCorrelation, 0, 'errorCorrelation'),
    style,
    confidence: config.confidence ?? false,
    text: config.text ?? false,
    taskPrefix: config.taskPrefix ?? null,
    idWidth: Math.max(4, String(Math.max(tasks, 1)).length)
  }
}
