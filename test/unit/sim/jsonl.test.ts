import { describe, expect, it } from 'vitest'
import type { Trace } from '@shared/trace'
import { toJsonl } from '../../../src/main/sim/jsonl'
import { demoCouncil } from '../../../src/main/sim/presets'

describe('toJsonl', () => {
  it('writes one line in docs/formats.md field order and round-trips', () => {
    const [trace] = Array.from(demoCouncil({ tasks: 1, seed: 3 }))
    const line = toJsonl(trace)
    expect(line).not.toContain('\n')
    const parsed = JSON.parse(line) as Trace
    expect(parsed).toEqual(trace)
    expect(Object.keys(parsed)).toEqual(['task', 'question', 'candidates', 'gold', 'group', 'seats', 'moves'])
    expect(Object.keys(parsed.moves[0])).toEqual(['id', 'round', 'seat', 'force', 'answer', 'confidence', 'text'])
  })

  it('orders fields whatever order the object was built in, omits absent ones and keeps gold: null', () => {
    const trace = {
      moves: [{ target: 'm1', force: 'challenge', seat: 'B', round: 1, id: 'm2' }],
      gold: null,
      candidates: ['x', 'y'],
      task: 't1'
    } as unknown as Trace
    expect(toJsonl(trace)).toBe('{"task":"t1","candidates":["x","y"],"gold":null,"moves":[{"id":"m2","round":1,"seat":"B","force":"challenge","target":"m1"}]}')
  })
})
