import type { Migration } from '../../migrations'

/**
 * Version 7: the server records each Calibrate draw — which task it drew for which
 * reviewer's session, and when — so that a console's label of source `random` is taken only for a
 * task the blind draw gave that session, never for one a client picked (ops/label-ownership.ts).
 * A session's draws are a small set; the key answers the one question asked of it.
 */
const sql = `
CREATE TABLE draws (
  session_id TEXT NOT NULL,
  task_id    TEXT NOT NULL REFERENCES tasks (id),
  reviewer   TEXT NOT NULL,
  drawn_at   TEXT NOT NULL,
  PRIMARY KEY (session_id, task_id)
) WITHOUT ROWID;
`

export const migration: Migration = { version: 7, name: 'calibrate-draws', sql }
