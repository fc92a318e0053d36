/**
 * The labeled tasks' tallies the console's model is rebuilt from are kept from one fit to the next
 * (service/fit/model.ts): a landed refit reads only the tasks it has not seen, and gets
 * exactly what the store would give; another database (`forget`) reads them all again.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDemoDatabase } from '../../../src/main/service/demo'
import { labeledTallies, ModelCache, type KnownTallies } from '../../../src/main/service/fit/model'
import { openStore, type Store } from '../../../src/main/store'

let dir: string
const stores: Store[] = []

/** A demo database, and every id `loadTallies` was asked for on it. */
async function demo(name: string): Promise<{ store: Store; asked: string[][]; ids: string[] }> {
  const path = join(dir, name)
  await createDemoDatabase(path, { shell: 'cli' })
  const real = await openStore(path)
  stores.push(real)
  const asked: string[][] = []
  const store = new Proxy(real, {
    get: (target, key) =>
      key === 'loadTallies' ? (ids: string[]) => (asked.push([...ids]), target.loadTallies(ids)) : (target as unknown as Record<string | symbol, unknown>)[key]
  })
  const ids = (await real.tallyPage(null, 40)).map((t) => t.taskId)
  return { store, asked, ids }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-model-tallies-'))
})

afterAll(async () => {
  for (const s of stores) await s.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the labeled tasks’ tallies kept across fits', () => {
  it('reads only what it has not seen, and returns what the store returns, in the order asked', async () => {
    const a = await demo('a.db')
    expect(a.ids.length).toBe(40)
    const known: KnownTallies = new Map()
    const first = a.ids.slice(0, 30)
    // An id without tallies (no such task) is skipped, as the store skips it.
    const got = await labeledTallies(a.store, [...first, 'no-such-task'], known)
    expect(got).toEqual(await a.store.loadTallies([...first, 'no-such-task']))
    expect(a.asked.at(-2)).toEqual([...first, 'no-such-task'])

    // The next fit: ten more labeled tasks, in another order. Only those ten are read.
    const next = [...a.ids].reverse()
    const again = await labeledTallies(a.store, next, known)
    expect(a.asked.at(-1)).toEqual(next.filter((id) => !first.includes(id)))
    expect(again).toEqual(await a.store.loadTallies(next))
    // Nothing new: nothing read.
    await labeledTallies(a.store, next, known)
    expect(a.asked.at(-1)).toEqual([])
  })

  it('keeps them when another fit becomes current (clear), and drops them with the database (forget)', async () => {
    const a = await demo('b.db')
    const fit = await a.store.currentFit()
    expect(fit).not.toBeNull()
    const models = new ModelCache()
    const first = await models.get(a.store, fit!)
    const labeled = a.asked.flat().length
    expect(labeled).toBeGreaterThan(0)
    // A landed refit: the model is rebuilt, from the same tallies, none read again.
    models.clear()
    const second = await models.get(a.store, fit!)
    expect(second).not.toBe(first)
    expect(a.asked.flat().length).toBe(labeled)
    expect(second.T).toBe(first.T)
    expect(second.threshold).toBe(first.threshold)
    // Another database: every tally read again.
    models.forget()
    await models.get(a.store, fit!)
    expect(a.asked.flat().length).toBe(2 * labeled)
  })

  it('lets go of tasks no longer labeled once they outnumber the labeled ones', async () => {
    const a = await demo('d.db')
    const known: KnownTallies = new Map()
    await labeledTallies(a.store, a.ids, known)
    expect(known.size).toBe(40)
    await labeledTallies(a.store, a.ids.slice(0, 10), known)
    expect([...known.keys()].sort()).toEqual(a.ids.slice(0, 10).sort())
  })
})
