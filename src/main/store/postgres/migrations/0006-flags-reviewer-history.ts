import type { Migration } from '../../migrations'

/**
 * Flags, as SQLite's migration 0008: an append-only record of a reviewer who
 * cannot decide a task (who, why, when, from which session); not a label. `seq` is the recording
 * order the export pages by (SQLite's rowid). `labels_by_reviewer` serves a reviewer's history
 * (item 9): their newest labels, an index walk.
 */
const T = 'text COLLATE "C"'

const sql = `
CREATE TABLE flags (
  seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id         ${T} NOT NULL UNIQUE,
  task_id    ${T} NOT NULL REFERENCES tasks (id),
  reviewer   ${T} NOT NULL,
  reason     ${T} NOT NULL CHECK (length(reason) > 0),
  at         ${T} NOT NULL,
  session_id ${T} NOT NULL
);
CREATE INDEX labels_by_reviewer ON labels (reviewer, seq);
CREATE INDEX flags_by_task ON flags (task_id, seq);
CREATE TRIGGER flags_no_update BEFORE UPDATE ON flags
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('flags are append-only');
CREATE TRIGGER flags_no_delete BEFORE DELETE ON flags
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('flags are append-only');
CREATE TRIGGER flags_no_truncate BEFORE TRUNCATE ON flags
FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse('flags are append-only');
`

export const migration: Migration = { version: 6, name: 'flags-reviewer-history', sql }
