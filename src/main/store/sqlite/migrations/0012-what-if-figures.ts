import type { Migration } from '../../migrations'

/**
 * Version 12: a fit's what-if figures (../../what-if-figures.ts), so the Settings what-if reads one
 * chunk and binary-searches it instead of walking the fit's bounds. `fit_what_if`: the figures in
 * chunks, found by their first (largest) bound; `fits.what_if_entries`: how many entries the fit's
 * figures hold, null for a fit without them (decided before this version, or not yet given them),
 * whose what-if reads its rows as before. Derived from a fit's immutable rows: deleting them only
 * costs the what-if its speed.
 */
const sql = `
ALTER TABLE fits ADD COLUMN what_if_entries INTEGER CHECK (what_if_entries IS NULL OR what_if_entries >= 0);

CREATE TABLE fit_what_if (
  fit_id    TEXT NOT NULL REFERENCES fits (id),
  top_bound REAL NOT NULL,
  entries   BLOB NOT NULL,
  PRIMARY KEY (fit_id, top_bound)
);
`

export const migration: Migration = { version: 12, name: 'what-if-figures', sql }
