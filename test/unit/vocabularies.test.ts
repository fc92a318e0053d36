import { describe, expect, it } from 'vitest'
import type { Migration } from '../../src/main/store/migrations'
import { POSTGRES_MIGRATIONS } from '../../src/main/store/postgres/migrations'
import { SQLITE_MIGRATIONS } from '../../src/main/store/sqlite/migrations'
import { ALL_TOPICS } from '../../src/main/service/core'
import { apiInputSchemas } from '../../src/shared/api'
import { BOUND_KINDS } from '../../src/shared/contract/settings'
import { FORCES } from '../../src/shared/trace'
import {
  DECISION_KINDS,
  IMPORT_STATES,
  LABEL_SOURCES,
  QUEUE_SORTS,
  SHELLS,
  TASK_STATES,
  TOPICS
} from '../../src/shared/vocabularies'

/** Every `<column> IN ('a', 'b', …)` list the migrations spell for this column, as arrays. */
function literalLists(migrations: readonly Migration[], column: string): string[][] {
  const re = new RegExp(`\\b${column} IN \\(((?:'[^']*'(?:, )?)+)\\)`, 'g')
  return migrations.flatMap((m) => [...m.sql.matchAll(re)].map((hit) => [...hit[1].matchAll(/'([^']*)'/g)].map((x) => x[1])))
}

const BACKENDS = { sqlite: SQLITE_MIGRATIONS, postgres: POSTGRES_MIGRATIONS }

describe('vocabularies against the applied migrations', () => {
  for (const [backend, migrations] of Object.entries(BACKENDS)) {
    it.each([
      ['source', LABEL_SOURCES],
      ['shell', SHELLS],
      ['decision', DECISION_KINDS],
      ['state', IMPORT_STATES],
      ['bound', BOUND_KINDS]
    ])(`${backend}: every CHECK on %s lists exactly the vocabulary`, (column, words) => {
      const lists = literalLists(migrations, column)
      expect(lists.length).toBeGreaterThan(0)
      for (const list of lists) expect(list).toEqual([...words])
    })
  }

  it('sqlite: every CHECK on a move force lists exactly FORCES', () => {
    const lists = literalLists(SQLITE_MIGRATIONS, 'force')
    expect(lists.length).toBeGreaterThan(0)
    for (const list of lists) expect(list).toEqual([...FORCES])
  })

  it('finds a list that differs (the check can fail)', () => {
    const planted: Migration = { version: 99, name: 'planted', sql: "CREATE TABLE x (source TEXT CHECK (source IN ('random', 'escalation', 'gold')))" }
    expect(literalLists([planted], 'source')).toEqual([['random', 'escalation', 'gold']])
    expect(literalLists([planted], 'source')[0]).not.toEqual([...LABEL_SOURCES])
  })
})

describe('vocabularies among themselves', () => {
  it('a task state is a decision or human', () => {
    expect([...TASK_STATES]).toEqual([...DECISION_KINDS, 'human'])
  })

  it('the service broadcasts every topic', () => {
    expect(ALL_TOPICS).toEqual([...TOPICS])
  })

  it('the call schemas accept exactly the vocabularies', () => {
    const queue = apiInputSchemas['queue.page']
    for (const sort of QUEUE_SORTS) expect(queue.safeParse({ sort }).success).toBe(true)
    expect(queue.safeParse({ sort: 'random' }).success).toBe(false)
  })
})
