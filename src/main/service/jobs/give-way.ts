/**
 * A fit started by the service gives way to its reviewers (resolve → next while the
 * background refit runs). The job's thread runs at a lower priority (priority.ts), but on Linux
 * that weighs only against the threads of the server's own session: with autogroup scheduling
 * (on by default) a browser started elsewhere — from the desktop, or by Playwright, which starts
 * it detached — is another session, and the two sessions share the machine evenly whenever both
 * have work. On two cores the refit's two threads then took the core that the window's paint
 * needed. So the service marks every call it serves in a word the job's thread reads, and the
 * fit's loop, between two pages, waits until the reviewers have been quiet for `GIVE_WAY_MS`:
 * at most that long per page, and in all at most `WAIT_PER_WORK` times as long as it has worked,
 * so that a team that never pauses still sees its refit land (at worst at a fifth of its speed).
 * A reviewer reads a task for seconds between two keys: a real refit mostly runs in those pauses.
 */

/** How long after a reviewer's call a fit waits before its next page: a key's calls and its paint. */
export const GIVE_WAY_MS = 250

/**
 * How long a job may wait for each ms it has worked, chosen with `npm run bench -- ui`'s refit case
 * (resolve → next while the refit runs): a lower cap lets the refit slow the reviewer's keys again;
 * no cap at all makes them hardly quicker, and lets a team that never pauses hold the refit back.
 */
export const WAIT_PER_WORK = 4

/** The shared words: when the service last served a call, and the ms its jobs have waited in all. */
const LAST_CALL = 0
const WAITED = 1

/** The service's side: when it last served a call, in words shared with its jobs' threads. */
export class ReviewerActivity {
  readonly buffer = new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT)
  private readonly words = new BigInt64Array(this.buffer)

  mark(now: number = Date.now()): void {
    Atomics.store(this.words, LAST_CALL, BigInt(now))
  }

  /** How long this service's jobs have given way, in all. */
  get waitedMs(): number {
    return Number(Atomics.load(this.words, WAITED))
  }
}

export interface GiveWayClock {
  now(): number
  sleep(ms: number): Promise<void>
}

const realClock: GiveWayClock = { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) }

/** The job's side: `pause()` between two steps of its work. Without a shared word it never waits. */
export class GiveWay {
  private readonly words: BigInt64Array | null
  private readonly started: number
  private waited = 0

  constructor(
    buffer: SharedArrayBuffer | null | undefined,
    private readonly quietMs: number = GIVE_WAY_MS,
    private readonly clock: GiveWayClock = realClock
  ) {
    this.words = buffer ? new BigInt64Array(buffer) : null
    this.started = clock.now()
  }

  /** Waits until the reviewers have been quiet for the quiet period, within the limits above. */
  async pause(): Promise<void> {
    if (this.words === null) return
    const now = this.clock.now()
    const quietFor = now - Number(Atomics.load(this.words, LAST_CALL))
    if (quietFor >= this.quietMs) return
    // Its waits stay within WAIT_PER_WORK times its work: a fifth of its time is its own, at worst.
    const wait = Math.min(this.quietMs - quietFor, WAIT_PER_WORK * (now - this.started - this.waited) - this.waited)
    if (wait <= 0) return
    await this.clock.sleep(wait)
    this.waited += wait
    Atomics.add(this.words, WAITED, BigInt(Math.round(wait)))
  }
}

type Handler = (args: never, ctx: never) => Promise<unknown>

/** The same handlers, each marking `activity` as its call arrives. */
export function markingEachCall<H extends { [method: string]: Handler }>(handlers: H, activity: ReviewerActivity): H {
  const marked: { [method: string]: Handler } = {}
  for (const [method, handler] of Object.entries(handlers)) {
    marked[method] = (args, ctx) => {
      activity.mark()
      return handler(args, ctx)
    }
  }
  return marked as H
}
