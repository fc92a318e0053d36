import type { Migration } from '../../migrations'

/**
 * A task's moves become one row: `task_moves.moves` is the JSON array of its moves in file order
 * (each an object; a null field may be absent), keyed by task, and `tasks.move_count` counts them.
 * Why:
 * - Moves are only ever read whole, per task (the transcript, the tallies backfill); fit and
 *   decide read the tallies. A row per move cost every import two B-tree inserts per move (the
 *   table and its (task_id, idx) key) — 10 million of each for a million-task council — for
 *   rows nothing queries one by one.
 * - Their own table, not a column of `tasks`: the fit's tally scan and the queue read `tasks`
 *   row by row, and a kilobyte of debate in each row would multiply the pages those walks read.
 *   WITHOUT ROWID: the row is its key's only B-tree, one insert per task.
 * - Immutable like the moves were; removed only with its unpublished task (ON DELETE CASCADE).
 * The data moves over in this same transaction; `moves` and its triggers go.
 *
 * Also `fits.deferred_count` and `fits.spot_count`, set once with the decisions: the console's
 * counts and the queue's total are then the fit's counts minus its tasks labeled since (a walk of
 * the labels, not of a million decisions). NULL for fits decided before: those are counted.
 */
const sql = `
CREATE TABLE task_moves (
  task_id TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
  moves   TEXT NOT NULL CHECK (json_valid(moves))
) WITHOUT ROWID;
INSERT INTO task_moves (task_id, moves)
SELECT m.task_id, json_group_array(json_object(
    'id', m.id, 'round', m.round, 'seat', m.seat, 'force', m.force, 'answer', m.answer,
    'target', m.target, 'confidence', m.confidence, 'text', m.text, 'raw', json(m.raw)) ORDER BY m.idx)
FROM moves m GROUP BY m.task_id;
INSERT INTO task_moves (task_id, moves) SELECT t.id, '[]' FROM tasks t WHERE NOT EXISTS (SELECT 1 FROM moves m WHERE m.task_id = t.id);
ALTER TABLE tasks ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0 CHECK (move_count >= 0);
UPDATE tasks SET move_count = (SELECT count(*) FROM moves m WHERE m.task_id = tasks.id);
DROP TRIGGER moves_immutable;
DROP TRIGGER moves_published_kept;
DROP TABLE moves;
DROP TRIGGER tasks_content_immutable;
CREATE TRIGGER tasks_content_immutable
BEFORE UPDATE OF id, import_id, question, candidates, gold, grp, raw, content_sha256, created_at, move_count ON tasks
BEGIN SELECT RAISE(ABORT, 'tasks: content is immutable (only version changes)'); END;
ALTER TABLE fits ADD COLUMN deferred_count INTEGER CHECK (deferred_count IS NULL OR deferred_count >= 0);
ALTER TABLE fits ADD COLUMN spot_count INTEGER CHECK (spot_count IS NULL OR spot_count >= 0);
DROP TRIGGER fits_decided_once;
CREATE TRIGGER fits_decided_once BEFORE UPDATE OF decided_at, decision_count, deferred_count, spot_count ON fits
WHEN OLD.decided_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'fits: decisions were already saved'); END;
CREATE TRIGGER task_moves_immutable BEFORE UPDATE ON task_moves
BEGIN SELECT RAISE(ABORT, 'moves: immutable'); END;
CREATE TRIGGER task_moves_published_kept BEFORE DELETE ON task_moves
WHEN (SELECT i.state FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = OLD.task_id) = 'published'
BEGIN SELECT RAISE(ABORT, 'moves: a published move cannot be deleted'); END;
`

export const migration: Migration = { version: 3, name: 'packed-moves', sql }
