import type { Move, SeatInfo, Trace } from '@shared/trace'
import type { CouncilConfig } from './config'
import { Debate, F_CHALLENGE, F_CONCEDE, F_PROPOSE, F_RETRACT, F_VOTE, type TaskSetup } from './debate'
import { moveText, type ArgueFn } from './move-text'
import { createRng, type Rng } from './prng'
import { ADVERSARIAL, SLEEPER, resolveCouncil, type ResolvedCouncil } from './resolve'

/**
 * Simulated council traces (`arbiter.trace/1`), deterministic from a seed.
 *
 * Generative model, per task i of the stream:
 * 1. A group is drawn by weight; its question maker (or fixed labels) gives K candidates, the gold
 *    (uniform when there is no maker) and a *distractor*, the most plausible wrong candidate.
 * 2. Each seat is honest or hostile on the task: `adversarial` seats always, a `sleeper` from task
 *    index `turnAt` on, and with `rotating` a fresh random draw of non-hostile seats per task
 *    (BDA §7, F.1). While hostile, each move is adversarial with probability `pWrong` (default 1).
 * 3. Rounds t = 0..R−1, one move per seat per round (the paper's "natural volume", BDA D.5), seats
 *    in order; round t sees, and targets, only moves of rounds < t.
 *
 * A **look** of seat s is one conditionally independent reading of the question: the gold with
 * probability `reliability` (per group if given), otherwise a wrong candidate — the distractor
 * with probability `errorCorrelation`, else uniform over the K − 1 wrong ones. So reliability is
 * both the seat's round-0 accuracy and, at K = 2, the share of its endorsements consistent with
 * the gold in every round: each honest move carries exactly one endorsement that agrees with the
 * gold iff that round's look did. This is the count model of BDA §3 taken literally, which is what
 * makes the engine's clean-council check (docs/engine.md §4: 0.74 / 0.68 / 0.68, 3 rounds, 4,500 tasks)
 * a correctly specified benchmark. `conformity` deliberately breaks independence (contagion).
 *
 * Honest moves. Round 0: propose the look. Round t ≥ 1: the stance is a new look (or, with
 * probability `conformity`, the plurality of the other seats' current answers); then
 * - stance = current answer: challenge a recent move that opposes it (endorses another answer, or
 *   challenged this one) with P(challengeRate); else concede to a recent move of another seat that
 *   endorses it (agreeing) with P(agreeRate); else vote it again;
 * - stance ≠ current answer (a change of mind): concede to a recent move that endorses the new
 *   stance with P(switchConcedeRate) — convinced by it; else retract the old answer with
 *   P(retractRate); else propose the new stance.
 * Any honest move is an abstention with probability `abstainRate`.
 *
 * Hostile moves ("argue against the truth, pick the most defensible wrong, concede to allies",
 * BDA F.2): round 0 proposes a wrong answer (the distractor with probability 0.7); later rounds
 * challenge a recent move that endorses the gold with P(attackRate), else concede to a recent move
 * that endorses a wrong answer with P(allyRate) and adopt it, else vote (or re-propose) the wrong
 * answer. Every adversarial endorsement is inconsistent with the gold.
 *
 * Self-reported `confidence` (optional) is overconfident and only weakly tied to correctness, as
 * in the paper's councils; adversaries report high confidence. The engine never reads it.
 *
 * Randomness comes from four independent streams of the seed (council, questions, text,
 * confidence), so switching text or confidences on never changes a single move.
 * Cost per task: O(seats · rounds) moves, each scanning at most the previous round's moves in
 * practice (O(seats · rounds) worst case); no allocation beyond the emitted objects.
 *
 * The config is validated at the call (RangeError), not at the first `next()`.
 */
export function generateCouncil(config: CouncilConfig): Generator<Trace, void, undefined> {
  return stream(resolveCouncil(config))
}

function* stream(rc: ResolvedCouncil): Generator<Trace, void, undefined> {
  const S = rc.seatIds.length
  const rng = createRng(rc.seed, 'council')
  const questionRng = createRng(rc.seed, 'questions')
  const textRng = createRng(rc.seed, 'text')
  const confRng = createRng(rc.seed, 'confidence')
  const debate = new Debate(S, rc.maxRounds, rc.style, rc.conformity, rc.abstainRate, rc.errorCorrelation)
  const moveIds = Array.from({ length: S * rc.maxRounds }, (_, j) => `m${j + 1}`)
  const counters = new Int32Array(rc.groups.length)
  const setup: TaskSetup = {
    k: 2,
    gold: 0,
    distractor: 1,
    rounds: 1,
    reliability: rc.groups[0].reliability,
    hostile: new Uint8Array(S),
    pWrong: new Float64Array(S)
  }
  const order = new Int32Array(S)

  for (let i = 0; i < rc.tasks; i++) {
    const gi = pickGroup(rc, rng)
    const group = rc.groups[gi]
    const n = ++counters[gi]
    let candidates: string[]
    let question: string | undefined
    let argue: ArgueFn | undefined
    if (group.questions) {
      const item = group.questions(questionRng, n - 1)
      checkItem(item.candidates, item.gold, item.distractor, group.name)
      candidates = item.candidates
      question = item.question
      setup.gold = item.gold
      setup.distractor = item.distractor
      const itemArgue = item.argue
      if (itemArgue && rc.text) argue = (c) => itemArgue(c, textRng)
    } else {
      candidates = (group.labels as string[]).slice()
      const k = candidates.length
      setup.gold = rng.int(k)
      setup.distractor = k === 2 ? 1 - setup.gold : (setup.gold + 1 + rng.int(k - 1)) % k
    }
    setup.k = candidates.length
    setup.rounds = group.rounds
    setup.reliability = group.reliability
    assignHostility(rc, i, rng, setup, order)
    debate.run(rng, setup)

    const task = `${rc.taskPrefix ?? group.slug}-${String(n).padStart(rc.idWidth, '0')}`
    const gold = candidates[setup.gold]
    const seats = seatList(rc)
    const moves = buildMoves(rc, debate, moveIds, candidates, setup.gold, textRng, confRng, argue)
    // Two literals rather than a spread: key order stays docs/formats.md's and the hot path stays monomorphic.
    const trace: Trace =
      question === undefined
        ? { task, candidates, gold, group: group.name, seats, moves }
        : { task, question, candidates, gold, group: group.name, seats, moves }
    yield trace
  }
}

/** All traces of a config in one array — for tests and small runs; stream the generator for big ones. */
export function generateCouncilArray(config: CouncilConfig): Trace[] {
  return Array.from(generateCouncil(config))
}

function pickGroup(rc: ResolvedCouncil, rng: Rng): number {
  if (rc.groups.length === 1) return 0
  const u = rng.next()
  let g = 0
  while (rc.groups[g].cumWeight <= u) g++
  return g
}

function checkItem(candidates: string[], gold: number, distractor: number, group: string): void {
  const k = candidates.length
  if (k < 2 || new Set(candidates).size !== k || !(gold >= 0 && gold < k) || !(distractor >= 0 && distractor < k) || distractor === gold)
    throw new RangeError(`sim: question maker of ${group} returned an invalid item`)
}

function assignHostility(rc: ResolvedCouncil, i: number, rng: Rng, setup: TaskSetup, order: Int32Array): void {
  const S = rc.seatIds.length
  let free = 0
  for (let s = 0; s < S; s++) {
    const b = rc.behaviour[s]
    const hostile = b === ADVERSARIAL || (b === SLEEPER && i >= rc.turnAt[s])
    setup.hostile[s] = hostile ? 1 : 0
    setup.pWrong[s] = rc.pWrong[s]
    if (!hostile) order[free++] = s
  }
  // Rotating adversary: a partial Fisher–Yates draw of fresh seats among the non-hostile ones.
  const m = Math.min(rc.rotatingSeats, free)
  for (let r = 0; r < m; r++) {
    const j = r + rng.int(free - r)
    const s = order[j]
    order[j] = order[r]
    order[r] = s
    setup.hostile[s] = 1
    setup.pWrong[s] = rc.rotatingPWrong
  }
}

function seatList(rc: ResolvedCouncil): SeatInfo[] {
  return rc.seatIds.map((id, s) => {
    const model = rc.seatModels[s]
    return model === undefined ? { id } : { id, model }
  })
}

const FORCE_NAMES = ['propose', 'vote', 'challenge', 'concede', 'retract', 'abstain'] as const

function buildMoves(
  rc: ResolvedCouncil,
  d: Debate,
  ids: string[],
  candidates: string[],
  gold: number,
  textRng: Rng,
  confRng: Rng,
  argue: ArgueFn | undefined
): Move[] {
  const moves: Move[] = new Array(d.n)
  // A replay of each seat's current answer, only needed to phrase challenges in text.
  const current = rc.text ? new Int32Array(rc.seatIds.length).fill(-1) : null
  for (let j = 0; j < d.n; j++) {
    const f = d.force[j]
    const s = d.seat[j]
    const move: Move = { id: ids[j], round: d.round[j], seat: rc.seatIds[s], force: FORCE_NAMES[f] }
    if (f === F_PROPOSE || f === F_VOTE) move.answer = candidates[d.cand[j]]
    else if (f === F_CHALLENGE || f === F_CONCEDE) move.target = ids[d.target[j]]
    if (rc.confidence && f <= F_CONCEDE) {
      const agrees = d.sign[j] === 1 ? d.cand[j] === gold : d.cand[j] !== gold
      move.confidence = selfReport(confRng, d.adversarial[j] === 1, agrees)
    }
    if (current) {
      const t = d.target[j]
      move.text = moveText(textRng, {
        force: f,
        round: d.round[j],
        changed: d.changed[j] === 1,
        answer: d.cand[j],
        mine: current[s],
        target: t >= 0 ? { id: ids[t], seat: rc.seatIds[d.seat[t]], cand: d.cand[t], sign: d.sign[t] } : null,
        candidates,
        argue
      })
      if (f === F_RETRACT) current[s] = -1
      else if (d.sign[j] === 1) current[s] = d.cand[j]
    }
    moves[j] = move
  }
  return moves
}

/**
 * Self-reported confidence, two decimals. Honest seats state about 0.8 on average and only a little
 * more when right (BDA E: the council states ≈ 0.83 but is right 0.73); adversaries sound sure.
 */
function selfReport(rng: Rng, adversarial: boolean, agrees: boolean): number {
  const u = rng.next()
  const c = adversarial ? 0.8 + 0.18 * u : 0.55 + 0.44 * u ** (agrees ? 0.6 : 1.1)
  return Math.round(c * 100) / 100
}
