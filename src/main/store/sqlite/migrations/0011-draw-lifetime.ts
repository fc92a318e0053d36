import type { Migration } from '../../migrations'

/**
 * Version 11: a Calibrate draw belongs to one login, lives a limited time, and its skips are
 * counted (ops/draws.ts). `open_draws`: each login's one current draw — the session it was handed
 * to, when it expires, and the label given on it (null until then): a console's `random` label is
 * taken only for it, and a replacement only of the label given on it. `draw_counts`: per login, the
 * draws made, labeled and skipped (Audit shows them); `draw_skips`: the tasks a login skipped, left
 * out of its later draws — the only exclusion a draw takes, and a bounded one. The old `draws` rows
 * stay as a record: none of them is an open draw, so none lets a `random` label in any more.
 */
const sql = `
CREATE TABLE open_draws (
  reviewer   TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  task_id    TEXT NOT NULL REFERENCES tasks (id),
  drawn_at   TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  label_id   TEXT
) WITHOUT ROWID;

CREATE TABLE draw_counts (
  reviewer TEXT PRIMARY KEY,
  draws    INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
  labeled  INTEGER NOT NULL DEFAULT 0 CHECK (labeled >= 0),
  skips    INTEGER NOT NULL DEFAULT 0 CHECK (skips >= 0)
) WITHOUT ROWID;

CREATE TABLE draw_skips (
  reviewer TEXT NOT NULL,
  task_id  TEXT NOT NULL REFERENCES tasks (id),
  PRIMARY KEY (reviewer, task_id)
) WITHOUT ROWID;
`

export const migration: Migration = { version: 11, name: 'draw-lifetime', sql }
