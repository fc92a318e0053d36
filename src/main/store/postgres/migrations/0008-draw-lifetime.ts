import type { Migration } from '../../migrations'

/**
 * Version 8, SQLite's migration 0011 in this dialect (read the why there): each login's one
 * current Calibrate draw with its expiry and the label given on it, the per-login counts of draws,
 * labels and skips, and the tasks a login skipped.
 */
const T = 'text COLLATE "C"'

const sql = `
CREATE TABLE open_draws (
  reviewer   ${T} PRIMARY KEY,
  session_id ${T} NOT NULL,
  task_id    ${T} NOT NULL REFERENCES tasks (id),
  drawn_at   ${T} NOT NULL,
  expires_at ${T} NOT NULL,
  label_id   ${T}
);

CREATE TABLE draw_counts (
  reviewer ${T} PRIMARY KEY,
  draws    integer NOT NULL DEFAULT 0 CHECK (draws >= 0),
  labeled  integer NOT NULL DEFAULT 0 CHECK (labeled >= 0),
  skips    integer NOT NULL DEFAULT 0 CHECK (skips >= 0)
);

CREATE TABLE draw_skips (
  reviewer ${T} NOT NULL,
  task_id  ${T} NOT NULL REFERENCES tasks (id),
  PRIMARY KEY (reviewer, task_id)
);
`

export const migration: Migration = { version: 8, name: 'draw-lifetime', sql }
