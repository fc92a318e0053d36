/**
 * Every per-seat figure of a task's verdict is the fit's own method's: under the standing vote
 * (the default), a seat's vote is its standing answer, worth w_i = ln(μ_i/(1 − μ_i)) at any K
 * (docs/engine.md §11) — an adversarial seat's vote counts against its answer, never for it
 * through §3's (K − 1) term, which the standing vote does not have.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createService, type Service } from '../../src/main/service'
import { createDemoDatabase } from '../../src/main/service/demo'
import { openStore } from '../../src/main/store'
import type { TaskDetail } from '../../src/shared/api'

let dir: string
let service: Service

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-verdict-figures-'))
  const db = join(dir, 'arbiter.db')
  await createDemoDatabase(db)
  service = await createService({ store: await openStore(db), dbLocation: db, nativeBinding: null, shell: 'web' })
}, 60_000)

afterAll(async () => {
  await service.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the seat table’s per-vote figure', () => {
  it('is the standing vote’s w_i for every seat, an adversarial one’s negative, at any K', async () => {
    const ctx = service.context()
    const page = await service.handlers['queue.page'](
      { filter: { decision: 'defer', group: null, seat: null, candidate: null, labelSource: null, spotCheck: null, search: null }, sort: 'gap', direction: 'asc', offset: 0, limit: 60 },
      ctx
    )
    const details: TaskDetail[] = await Promise.all(page.rows.map((r) => service.handlers['task.detail']({ taskId: r.taskId, blind: false }, ctx)))
    const fit = await service.handlers['fits.get']({ fitId: details[0].verdict!.fitId }, ctx)
    expect(fit.method).toBe('standing-vote')
    const mu = new Map(fit.seats.map((s) => [s.seat, s.mu as number]))
    let adversarial = 0
    const Ks = new Set<number>()
    for (const d of details) {
      const v = d.verdict!
      expect(v.voteUnit, d.task.id).toBe('standing answer')
      Ks.add(d.task.candidates.length)
      for (const s of v.seats) {
        const m = mu.get(s.seat)!
        expect(s.voteEvidence, `${d.task.id} ${s.seat}`).toBeCloseTo(Math.log(m / (1 - m)), 12)
        expect(s.voteEvidence, `${d.task.id} ${s.seat}`).toBeCloseTo(s.weight!, 12)
        if (s.weight! < 0) {
          adversarial++
          expect(s.voteEvidence!, `${d.task.id} ${s.seat}: a reliably wrong seat's vote counts against its answer`).toBeLessThan(0)
        }
      }
    }
    expect(adversarial, 'a seat with a negative weight in the demo').toBeGreaterThan(0)
    expect(Ks.size, 'tasks of more than one K').toBeGreaterThan(1)
  })
})
