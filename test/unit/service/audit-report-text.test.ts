/** The report's escaping (audit/report/text.ts): hostile text from the database never becomes markup. */
import { describe, expect, it } from 'vitest'
import { reviewerRows } from '../../../src/main/service/audit/reviewers'
import { esc, short } from '../../../src/main/service/audit/report/text'

describe('report text', () => {
  it('escapes the five HTML metacharacters, in content and attribute values alike', () => {
    expect(esc(`<img src=x onerror="alert('1')"> & co`)).toBe('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co')
  })

  it('shortens before escaping, so a cut never splits an entity', () => {
    expect(short('a&b', 2)).toBe('a…')
    expect(short('<<<<', 3)).toBe('&lt;&lt;…')
    expect(short('ok', 5)).toBe('ok')
  })
})

describe('reviewer rows', () => {
  it('merges sources per reviewer, most labels first', () => {
    expect(
      reviewerRows([
        { reviewer: 'ana', source: 'escalation', live: 2, superseded: 0 },
        { reviewer: 'ana', source: 'random', live: 1, superseded: 1 },
        { reviewer: 'bo', source: 'random', live: 5, superseded: 0 }
      ])
    ).toEqual([
      { reviewer: 'bo', random: 5, escalation: 0, undone: 0 },
      { reviewer: 'ana', random: 1, escalation: 2, undone: 1 }
    ])
  })
})
