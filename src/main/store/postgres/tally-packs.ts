/** Tally packs (../tally-pack.ts) on PostgreSQL: the counterpart of sqlite/tally-packs.ts. */
import { StoreError, type StoredTallies } from '../contract'
import { checkId, checkInt } from '../validate'
import { encodedPackCheck } from '../tally-sources'
import type { TallyPackRow, TallySource } from '../contract'
import { TALLY_COLUMNS, toTallyPage, type TallyRow } from '../tally-rows'
import type { PgSql } from './connection'

const SOURCES = `SELECT i.id AS "importId",
    (SELECT count(*) FROM tasks t WHERE t.import_id = i.id) AS tasks,
    (SELECT coalesce(sum(p.tasks), 0) FROM tally_packs p WHERE p.import_id = i.id) AS "packedTasks"
  FROM imports i WHERE i.state = 'published' AND EXISTS (SELECT 1 FROM tasks t WHERE t.import_id = i.id)`

/** Published imports with tasks, oldest first, with how many of their tasks are packed. */
export async function tallySources(q: PgSql): Promise<TallySource[]> {
  const rows = await q.all<TallySource>(`${SOURCES} ORDER BY i.published_at, i.id`)
  return rows.map((r) => ({ importId: r.importId, tasks: Number(r.tasks), packedTasks: Number(r.packedTasks) }))
}

export async function importTallyPage(q: PgSql, importId: string, afterTaskId: string | null, limit: number): Promise<StoredTallies[]> {
  checkId(importId, 'importId')
  checkInt(limit, 'limit', 1)
  const rows = await q.all<TallyRow>(
    `SELECT ${TALLY_COLUMNS} FROM tasks t JOIN imports i ON i.id = t.import_id AND i.state = 'published'
     JOIN task_tallies tt ON tt.task_id = t.id WHERE t.id > ? AND t.import_id = ? ORDER BY t.id LIMIT ?`,
    afterTaskId ?? '', importId, Math.min(limit, 100_000)
  )
  return toTallyPage(rows)
}

export async function tallyPack(q: PgSql, importId: string, part: number): Promise<TallyPackRow | null> {
  checkId(importId, 'importId')
  checkInt(part, 'part')
  const row = await q.get<TallyPackRow>('SELECT tasks, first_task, last_task, ids, dict, meta, ints FROM tally_packs WHERE import_id = ? AND part = ?', importId, part)
  return row ?? null
}

/** All of an import's packs in one transaction (the import row locked: two packers take turns). */
export async function saveTallyPacks(q: PgSql, importId: string, packs: TallyPackRow[]): Promise<number> {
  checkId(importId, 'importId')
  await q.get('SELECT id FROM imports WHERE id = ? FOR UPDATE', importId)
  const rows = await q.all<TallySource>(`${SOURCES} AND i.id = ?`, importId)
  if (rows.length === 0) throw new StoreError('not_found', `no published import ${importId} with tasks`, { importId })
  const source = { importId, tasks: Number(rows[0].tasks), packedTasks: Number(rows[0].packedTasks) }
  if (source.packedTasks > 0) return 0
  encodedPackCheck(source, packs)
  for (let part = 0; part < packs.length; part++) {
    const p = packs[part]
    await q.run(
      'INSERT INTO tally_packs (import_id, part, tasks, first_task, last_task, ids, dict, meta, ints) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      importId, part, p.tasks, p.first_task, p.last_task, p.ids, p.dict, p.meta, p.ints
    )
  }
  return packs.length
}
