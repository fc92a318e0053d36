import type { Migration } from '../../migrations'

/**
 * Version 10: the current fit's labeled tasks counted by decision kind, as of a label rowid
 * (../../ops/decided-counts.ts). The queue's total and the console's counts subtract them from the
 * fit's stored counts; counting them afresh probed the fit's decisions once per live label on
 * every page, most of the team bench's SQL time. A label write
 * brings the row up to date in its own transaction; a read counts only the labels written since
 * its `label_seq`, so a write that skipped it costs time, never a wrong count. A cache: at most
 * one row (the fit last brought up to date), and deleting it only costs one full count.
 *
 * Labels are append-only and SQLite hands out rowids in commit order (one writer at a time), so
 * "the labels up to rowid N" is a state the database really was in. No PostgreSQL counterpart:
 * its identity values are not in commit order under concurrent writers.
 */
const sql = `
CREATE TABLE fit_labeled_counts (
  fit_id     TEXT PRIMARY KEY REFERENCES fits (id),
  label_seq  INTEGER NOT NULL CHECK (label_seq >= 0),
  act        INTEGER NOT NULL CHECK (act >= 0),
  act_spot   INTEGER NOT NULL CHECK (act_spot >= 0),
  defer      INTEGER NOT NULL CHECK (defer >= 0),
  defer_spot INTEGER NOT NULL CHECK (defer_spot >= 0)
);
`

export const migration: Migration = { version: 10, name: 'labeled-counts', sql }
