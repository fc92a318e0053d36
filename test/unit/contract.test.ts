/**
 * The console contract's own rules: every call is a query or a command, a command names no topics,
 * a query names the topics its answer depends on; and no name means one thing in the contract and
 * another in the store's contract.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { API_CALLS } from '../../src/shared/api'
import { API_METHODS } from '../../src/shared/api-methods'
import { TOPICS } from '../../src/shared/vocabularies'
import { declaredExports, declaredExportsUnder } from '../helpers/declared-names'

const root = join(__dirname, '../..')

describe('the calls', () => {
  it('are exactly the method list, each a query or a command', () => {
    expect(Object.keys(API_CALLS).sort()).toEqual([...API_METHODS].sort())
    for (const call of Object.values(API_CALLS)) expect(['query', 'command']).toContain(call.kind)
  })

  it('a command names no topics', () => {
    const commands = Object.entries(API_CALLS).filter(([, c]) => c.kind === 'command')
    expect(commands.length).toBeGreaterThan(0)
    for (const [, call] of commands) expect(call.reads).toEqual([])
  })

  it('a query names known topics, each once; only answers the console never asks again name none', () => {
    for (const [, call] of Object.entries(API_CALLS)) {
      for (const topic of call.reads) expect(TOPICS).toContain(topic)
      expect(new Set(call.reads).size).toBe(call.reads.length)
    }
    const fixed = Object.entries(API_CALLS).filter(([, c]) => c.kind === 'query' && c.reads.length === 0).map(([m]) => m)
    // app.info is fixed while the console runs; fits.change is asked once, as a fit lands.
    expect(fixed.sort()).toEqual(['app.info', 'fits.change'])
  })
})

describe('names', () => {
  it('no name is declared both by src/shared and by the store contract', () => {
    const shared = declaredExportsUnder(join(root, 'src/shared'))
    const store = declaredExportsUnder(join(root, 'src/main/store/contract'))
    expect(shared.size).toBeGreaterThan(100)
    expect(store.size).toBeGreaterThan(50)
    expect([...store.keys()].filter((name) => shared.has(name))).toEqual([])
  })

  it('counts declarations, not re-exports of one definition', () => {
    const source = [
      'export interface Row { id: string }',
      'export type Kind = "a" | "b"',
      'export const KINDS = ["a", "b"] as const, other = 1',
      'export function f() {}',
      'interface Hidden { x: number }',
      "export type { Shell } from './vocabularies'",
      "export { TOPICS } from './vocabularies'",
      'export type * from "./json"'
    ].join('\n')
    expect(declaredExports(source).sort()).toEqual(['KINDS', 'Kind', 'Row', 'f', 'other'])
  })
})
