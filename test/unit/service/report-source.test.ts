import { describe, expect, it } from 'vitest'
import type { AuditSummary } from '../../../src/shared/api'
import { renderReport } from '../../../src/main/service/audit/report'

const summary: AuditSummary = {
  fitId: null, methodInUse: 'gated', labeledTasks: 0, randomLabels: 0, methods: [],
  actOrDefer: { live: null, protocol: 'none', current: null, frontier: [], reason: 'no labels' },
  seats: [], confusionCandidates: [], reviewers: [], agreement: { reviewers: [], pairs: [], overall: null }, computedAt: '2026-11-30T12:00:00.000Z'
}

describe('the report names its database', () => {
  it('shows a PostgreSQL URL without its password', () => {
    const html = renderReport(summary, 'postgres://alice:s3cr3t-pw@db.example:5432/arbiter')
    expect(html).not.toContain('s3cr3t-pw')
    expect(html).toContain('alice@db.example:5432/arbiter')
  })

  it('shows a file path as it is', () => {
    expect(renderReport(summary, '/home/alice/arbiter.db')).toContain('/home/alice/arbiter.db')
  })
})
