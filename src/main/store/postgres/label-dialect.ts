import type { LabelDialect } from '../label-rules'

/** PostgreSQL's side of the shared label rules: recording order is the identity `seq`; an id list is a text[]. */
export const LABELS: LabelDialect = {
  seq: 'seq',
  idSet: '(SELECT unnest(?::text[]))',
  idParam: (ids) => ids
}
