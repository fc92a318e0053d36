import type { Migration } from '../../migrations'

/**
 * The operating loop's schema. Design notes (why, not what):
 * - `task_tallies`: each task's sufficient statistics (docs/engine.md §2), written with the task at
 *   import so fit and decide never re-read moves. `counts` and `vote0` are the engine's Int32
 *   arrays as little-endian bytes; `seats` and `rounds` name the local seat order and the round
 *   cuts. Derived from immutable moves, so immutable too; removed only with its (unpublished) task.
 *   `social_p1` is the social state's top share at the last round: the queue's disagreement is
 *   1 − it, and a decision row copies it so the disagreement order stays an index walk.
 * - `task_search`: FTS5 over questions. A self-contained FTS table (not external content): an
 *   external-content index maps through the tasks' implicit rowids, which VACUUM may renumber.
 *   The import writes each batch's questions with one INSERT … SELECT (a row trigger costs five
 *   times as much: every row is its own FTS5 write); a trigger removes them with their task.
 * - `moves` is rebuilt without its UNIQUE (task_id, id) index: the largest table's second index
 *   doubled the cost of every import, and move ids are unique per task before any row is written
 *   (the reader's duplicate-move rule, and the store's own check of each task).
 * - decisions gain the certificate's per-task explanation (the k behind each L_t, the gap
 *   decomposition, the reason a task was deferred without its bound) for the review screen.
 */
const sql = `
CREATE TABLE task_tallies (
  task_id   TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
  k         INTEGER NOT NULL CHECK (k >= 2),
  seats     TEXT NOT NULL CHECK (json_valid(seats) AND json_type(seats) = 'array'),
  rounds    TEXT NOT NULL CHECK (json_valid(rounds) AND json_type(rounds) = 'array'),
  counts    BLOB NOT NULL,
  vote0     BLOB NOT NULL,
  social_p1 REAL NOT NULL
);
CREATE TRIGGER task_tallies_immutable BEFORE UPDATE ON task_tallies
BEGIN SELECT RAISE(ABORT, 'task_tallies: derived from immutable moves, so immutable'); END;
CREATE TRIGGER task_tallies_published_kept BEFORE DELETE ON task_tallies
WHEN (SELECT i.state FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = OLD.task_id) = 'published'
BEGIN SELECT RAISE(ABORT, 'task_tallies: a published task keeps its tallies'); END;

CREATE VIRTUAL TABLE task_search USING fts5 (task_id UNINDEXED, question, tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER tasks_search_delete AFTER DELETE ON tasks WHEN OLD.question IS NOT NULL
BEGIN DELETE FROM task_search WHERE rowid = OLD.rowid AND task_id = OLD.id; END;
INSERT INTO task_search (rowid, task_id, question) SELECT rowid, id, question FROM tasks WHERE question IS NOT NULL;

CREATE TABLE moves_v2 (
  task_id    TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  idx        INTEGER NOT NULL CHECK (idx >= 0),
  id         TEXT NOT NULL,
  round      INTEGER NOT NULL CHECK (round >= 0),
  seat       TEXT NOT NULL,
  force      TEXT NOT NULL CHECK (force IN ('propose', 'vote', 'challenge', 'concede', 'retract', 'abstain')),
  answer     TEXT,
  target     TEXT,
  confidence REAL,
  text       TEXT,
  raw        TEXT CHECK (raw IS NULL OR json_valid(raw)),
  PRIMARY KEY (task_id, idx)
);
INSERT INTO moves_v2 (task_id, idx, id, round, seat, force, answer, target, confidence, text, raw)
  SELECT task_id, idx, id, round, seat, force, answer, target, confidence, text, raw FROM moves;
DROP TABLE moves;
ALTER TABLE moves_v2 RENAME TO moves;
CREATE TRIGGER moves_immutable BEFORE UPDATE ON moves
BEGIN SELECT RAISE(ABORT, 'moves: immutable'); END;
CREATE TRIGGER moves_published_kept BEFORE DELETE ON moves
WHEN (SELECT i.state FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = OLD.task_id) = 'published'
BEGIN SELECT RAISE(ABORT, 'moves: a published move cannot be deleted'); END;

ALTER TABLE decisions ADD COLUMN ks TEXT CHECK (ks IS NULL OR json_valid(ks));
ALTER TABLE decisions ADD COLUMN why TEXT CHECK (why IS NULL OR json_valid(why));
ALTER TABLE decisions ADD COLUMN reason TEXT;
`

export const migration: Migration = { version: 2, name: 'operating-loop', sql }
