/** The report's escaping (audit/report/text.ts): hostile text from the database never becomes markup. */
import { describe, expect, it } from 'vitest'
import { reviewerRows, withDrawCounts } from '../../../src/main/service/audit/reviewers'
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
      { reviewer: 'bo', random: 5, escalation: 0, undone: 0, draws: 0, skips: 0 },
      { reviewer: 'ana', random: 1, escalation: 2, undone: 1, draws: 0, skips: 0 }
    ])
  })

  it('adds each login’s Calibrate draws and skips, with a row for a login that only drew', () => {
    const rows = reviewerRows([{ reviewer: 'ana', source: 'random', live: 3, superseded: 0 }])
    expect(
      withDrawCounts(rows, [
        { reviewer: 'ana', draws: 5, labeled: 3, skips: 2 },
        { reviewer: 'cy', draws: 4, labeled: 0, skips: 4 }
      ])
    ).toEqual([
      { reviewer: 'ana', random: 3, escalation: 0, undone: 0, draws: 5, skips: 2 },
      { reviewer: 'cy', random: 0, escalation: 0, undone: 0, draws: 4, skips: 4 }
    ])
  })
})
