/**
 * A fit started by the service gives way to its reviewers (service/jobs/give-way.ts):
 * between two pages it waits until no call has come for the quiet period, at most that long per
 * pause and in all at most WAIT_PER_WORK times as long as it has worked; without the service's words
 * it never waits.
 */
import { describe, expect, it } from 'vitest'
import { GiveWay, markingEachCall, ReviewerActivity, WAIT_PER_WORK, type GiveWayClock } from '../../../src/main/service/jobs/give-way'

/** A clock that only moves when told to, or when the job sleeps. */
function fakeClock(start: number): GiveWayClock & { t: number; slept: number[] } {
  const c = {
    t: start,
    slept: [] as number[],
    now: () => c.t,
    sleep: async (ms: number) => {
      c.slept.push(ms)
      c.t += ms
    }
  }
  return c
}

describe('give way', () => {
  it('never waits without the service\'s words, or after the quiet period', async () => {
    const clock = fakeClock(1_000_000)
    const alone = new GiveWay(null, 250, clock)
    clock.t += 10_000
    await alone.pause()
    expect(clock.slept).toEqual([])

    const activity = new ReviewerActivity()
    activity.mark(clock.t)
    const job = new GiveWay(activity.buffer, 250, clock)
    clock.t += 5_000
    activity.mark(clock.t - 250)
    await job.pause()
    expect(clock.slept).toEqual([])
    expect(activity.waitedMs).toBe(0)
  })

  it('waits out the rest of the quiet period after a call, and the service reads how long', async () => {
    const clock = fakeClock(1_000_000)
    const activity = new ReviewerActivity()
    const job = new GiveWay(activity.buffer, 250, clock)
    clock.t += 2_000 // the job has worked 2 s
    activity.mark(clock.t - 40)
    await job.pause()
    expect(clock.slept).toEqual([210])
    // Quiet since: the next pause goes on at once.
    await job.pause()
    expect(clock.slept).toEqual([210])
    activity.mark(clock.t)
    await job.pause()
    expect(clock.slept).toEqual([210, 250])
    expect(activity.waitedMs).toBe(460)
  })

  it('waits at most WAIT_PER_WORK times as long as it has worked, so a team that never pauses still gets its refit', async () => {
    const clock = fakeClock(1_000_000)
    const activity = new ReviewerActivity()
    const job = new GiveWay(activity.buffer, 250, clock)
    // Reviewers call at every step; each step of the job works 30 ms.
    for (let step = 0; step < 200; step++) {
      clock.t += 30
      activity.mark(clock.t)
      await job.pause()
    }
    const waited = clock.slept.reduce((a, b) => a + b, 0)
    const elapsed = clock.t - 1_000_000
    expect(waited).toBeGreaterThan(0)
    const share = WAIT_PER_WORK / (WAIT_PER_WORK + 1)
    expect(waited).toBeLessThanOrEqual(elapsed * share)
    expect(waited).toBeGreaterThan(elapsed * share - 250)
    expect(Math.max(...clock.slept)).toBeLessThanOrEqual(250)
    // A job that has just started has not worked yet: it does not wait.
    const fresh = new GiveWay(activity.buffer, 250, clock)
    const before = clock.slept.length
    activity.mark(clock.t)
    await fresh.pause()
    expect(clock.slept.length).toBe(before)
  })

  it('marks the activity as each call arrives, before its handler runs', async () => {
    const activity = new ReviewerActivity()
    const words = new BigInt64Array(activity.buffer)
    const seen: number[] = []
    const handlers = markingEachCall(
      {
        'app.counts': async () => {
          seen.push(Number(words[0]))
          return 1
        }
      },
      activity
    )
    const before = Date.now()
    expect(await handlers['app.counts']()).toBe(1)
    expect(seen[0]).toBeGreaterThanOrEqual(before)
    expect(Object.keys(handlers)).toEqual(['app.counts'])
  })
})
