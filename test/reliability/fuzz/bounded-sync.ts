/**
 * Runs synchronous code with a hard time bound. A reader is synchronous, so a hang (a quadratic
 * loop on a hostile line) cannot be raced by a timer; V8's script timeout, used here through a
 * tiny vm script that calls back into this realm, interrupts it and throws instead.
 */
import vm from 'node:vm'

const ctx = vm.createContext({ job: null as (() => unknown) | null, out: undefined as unknown })
const script = new vm.Script('out = job(); job = null')

export const CASE_LIMIT_MS = 20_000

export function boundedSync<T>(job: () => T, what: string, ms = CASE_LIMIT_MS): T {
  ctx.job = job
  try {
    script.runInContext(ctx, { timeout: ms })
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new Error(`${what}: did not finish within ${ms} ms (a hang)`, { cause: e })
    throw e
  }
  const out = ctx.out as T
  ctx.out = undefined
  return out
}
