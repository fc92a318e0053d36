import type { Migration } from '../../migrations'

/**
 * Version 5, SQLite's migration 0007 in this dialect (read the why there): the server's record of
 * each Calibrate draw (session, task, reviewer, time), so a console's `random` label is taken only
 * for a task drawn for that session.
 */
const T = 'text COLLATE "C"'

const sql = `
CREATE TABLE draws (
  session_id ${T} NOT NULL,
  task_id    ${T} NOT NULL REFERENCES tasks (id),
  reviewer   ${T} NOT NULL,
  drawn_at   ${T} NOT NULL,
  PRIMARY KEY (session_id, task_id)
);
`

export const migration: Migration = { version: 5, name: 'calibrate-draws', sql }
