import type { LabelDialect } from '../label-rules'

/** SQLite's side of the shared label rules: recording order is the rowid; an id list travels as JSON. */
export const LABELS: LabelDialect = {
  seq: 'rowid',
  idSet: '(SELECT value FROM json_each(?))',
  idParam: (ids) => JSON.stringify(ids)
}
