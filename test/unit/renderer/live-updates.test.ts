/**
 * The console's live updates, derived from the contract's `reads`: a change event invalidates the
 * queries reading any of its topics. The table is the hand-written topic → queries map the
 * renderer kept before the contract carried the topics; the derived rule must match it exactly.
 */
import { describe, expect, it } from 'vitest'
import { callKey, eventTopics, keyNamesOneOf, queriesReading } from '../../../src/renderer/src/api/call-keys'
import type { ApiEvent, Topic } from '../../../src/shared/events'
import { TOPICS } from '../../../src/shared/vocabularies'

const QUERIES_READING: Record<Topic, string[]> = {
  tasks: ['app.counts', 'queue.page', 'queue.facets', 'task.detail', 'imports.list', 'demo.status', 'adjudicate.list'],
  labels: ['app.counts', 'queue.page', 'task.detail', 'labels.recent', 'labels.history', 'fits.status', 'audit.summary', 'calibrate.draw', 'adjudicate.list', 'fits.whatIf'],
  decisions: ['app.counts', 'queue.page', 'task.detail', 'audit.summary', 'fits.whatIf'],
  fits: ['app.counts', 'queue.page', 'task.detail', 'fits.list', 'fits.status', 'fits.get', 'audit.summary', 'fits.whatIf'],
  imports: ['app.counts', 'imports.list', 'queue.facets', 'demo.status'],
  settings: ['settings.get', 'engine.getSettings', 'engine.defaultsNotice', 'demo.status', 'team.getSettings'],
  audit: ['audit.tail']
}

const sorted = (s: Iterable<string>) => [...s].sort()

describe('live updates', () => {
  it.each([...TOPICS])('a change of %s invalidates exactly the queries reading it', (topic) => {
    expect(sorted(queriesReading(eventTopics({ type: 'changed', topics: [topic] })))).toEqual(sorted(QUERIES_READING[topic]))
  })

  it('a change of several topics invalidates the union', () => {
    const e: ApiEvent = { type: 'changed', topics: ['labels', 'imports'] }
    expect(sorted(queriesReading(eventTopics(e)))).toEqual(sorted(new Set([...QUERIES_READING.labels, ...QUERIES_READING.imports])))
  })

  it('a landed fit invalidates what fits and decisions do; a job event nothing', () => {
    const landed = queriesReading(eventTopics({ type: 'fit-landed', fitId: 'f1' }))
    expect(sorted(landed)).toEqual(sorted(new Set([...QUERIES_READING.fits, ...QUERIES_READING.decisions])))
    const job: ApiEvent = { type: 'job', jobId: 'j', kind: 'fit', phase: 'done', done: 1, total: 1, message: null }
    expect(queriesReading(eventTopics(job)).size).toBe(0)
  })

  it('finds a cached answer by the call its key starts with', () => {
    const stale = queriesReading(['audit'])
    expect(keyNamesOneOf(callKey('audit.tail', 100), stale)).toBe(true)
    expect(keyNamesOneOf(callKey('audit.summary'), stale)).toBe(false)
    expect(callKey('task.detail', 't1', false)).toEqual(['task.detail', 't1', false])
  })
})
