import { StoreError, type TallyInput } from './contract'

/** The shape checks the engine relies on when it reads the arrays back. */
export function checkTallies(taskId: string, K: number, t: TallyInput): void {
  const bad = (what: string) => new StoreError('bad_input', `task ${taskId}: tallies ${what}`, { taskId })
  if (t === null || typeof t !== 'object') throw bad('must be an object')
  if (t.K !== K) throw bad(`K = ${String(t.K)} but the task has ${K} candidates`)
  if (!Array.isArray(t.seatIds) || !t.seatIds.every((s) => typeof s === 'string')) throw bad('seatIds must be strings')
  if (!Array.isArray(t.rounds) || !t.rounds.every((r) => Number.isSafeInteger(r) && r >= 0)) throw bad('rounds must be integers ≥ 0')
  if (!(t.counts instanceof Int32Array) || !(t.vote0 instanceof Int32Array)) throw bad('counts and vote0 must be Int32Arrays')
  const S = t.seatIds.length
  if (t.counts.length !== t.rounds.length * S * (2 * K + 2)) throw bad(`counts has ${t.counts.length} entries, expected R·S·(2K+2)`)
  if (t.vote0.length !== S) throw bad(`vote0 has ${t.vote0.length} entries, expected ${S}`)
  if (!(t.socialP1 >= 0 && t.socialP1 <= 1)) throw bad('socialP1 must be in [0, 1]')
}

