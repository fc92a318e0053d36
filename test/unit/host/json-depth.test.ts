import { describe, expect, it } from 'vitest'
import { nestsDeeperThan } from '../../../src/main/host/json-depth'

const deeper = (text: string, max: number) => nestsDeeperThan(Buffer.from(text), max)

describe('nestsDeeperThan: the nesting of a JSON text, counted before it is parsed', () => {
  it('counts arrays and objects inside one another, not side by side', () => {
    expect(deeper('{"a":[1,{"b":[]}]}', 4)).toBe(false)
    expect(deeper('{"a":[1,{"b":[]}]}', 3)).toBe(true)
    expect(deeper('[[],[],[],[],[]]', 2)).toBe(false)
    expect(deeper('1', 0)).toBe(false)
  })

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(deeper(JSON.stringify({ s: '[[[[{{{{' }), 1)).toBe(false)
    expect(deeper(JSON.stringify({ s: 'say \\"[[[[\\" and "[[[["' }), 1)).toBe(false)
    expect(deeper(JSON.stringify(['\\', [['x']]]), 2)).toBe(true)
  })

  it('needs no valid JSON: an unclosed megabyte of brackets is deeper than any limit', () => {
    expect(deeper('['.repeat(1 << 20), 64)).toBe(true)
  })
})
