import type { Migration } from '../../migrations'

/**
 * Version 8: flags. A reviewer who cannot decide a task flags it with a reason:
 * an append-only record (who, why, when, from which session), not a label — the task keeps its
 * state and stays in every queue. Like labels and the audit log, a flag is never updated or deleted.
 * `seq` (an alias of the rowid) is the recording order the export pages by.
 *
 * `labels_by_reviewer` serves a reviewer's history (item 9): their newest labels, an index walk
 * (SQLite keeps the rowid in every index, so the reviewer alone orders by recording order).
 */
const sql = `
CREATE TABLE flags (
  seq        INTEGER PRIMARY KEY,
  id         TEXT NOT NULL UNIQUE,
  task_id    TEXT NOT NULL REFERENCES tasks (id),
  reviewer   TEXT NOT NULL,
  reason     TEXT NOT NULL CHECK (length(reason) > 0),
  at         TEXT NOT NULL,
  session_id TEXT NOT NULL
);
CREATE INDEX labels_by_reviewer ON labels (reviewer);
CREATE INDEX flags_by_task ON flags (task_id, seq);
CREATE TRIGGER flags_no_update BEFORE UPDATE ON flags
BEGIN SELECT RAISE(ABORT, 'flags are append-only'); END;
CREATE TRIGGER flags_no_delete BEFORE DELETE ON flags
BEGIN SELECT RAISE(ABORT, 'flags are append-only'); END;
`

export const migration: Migration = { version: 8, name: 'flags-reviewer-history', sql }
