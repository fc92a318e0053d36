import type { Migration } from '../../migrations'

/** Version 9, SQLite's migration 0012 in this dialect (read the why there): a fit's what-if figures. */
const T = 'text COLLATE "C"'

const sql = `
ALTER TABLE fits ADD COLUMN what_if_entries integer CHECK (what_if_entries IS NULL OR what_if_entries >= 0);

CREATE TABLE fit_what_if (
  fit_id    ${T} NOT NULL REFERENCES fits (id),
  top_bound double precision NOT NULL,
  entries   bytea NOT NULL,
  PRIMARY KEY (fit_id, top_bound)
);
`

export const migration: Migration = { version: 9, name: 'what-if-figures', sql }
