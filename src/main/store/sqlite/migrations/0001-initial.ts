import type { Migration } from '../../migrations'

/**
 * The initial schema. Design notes (why, not what):
 * - Visibility: every imported row carries `import_id`; a row is visible iff its import is
 *   `published`, so publishing a large import flips one row and a kill mid-import shows nothing.
 *   Moves are owned by their task (composite key) and are visible through it.
 * - `seats` is keyed (id, import_id) so two imports can mention the same seat without one
 *   import's sweep removing the other's row; the visible seats are the distinct ids.
 * - Labels and the audit log are append-only (triggers). An undo inserts a row with
 *   `label IS NULL` that `supersedes` the undone label; at most one row supersedes a label.
 * - Published tasks and their moves are immutable, except `tasks.version` (bumped by every label
 *   write for optimistic concurrency).
 * - `decisions` copies the task's `created_at` and group (both immutable) so each review-queue
 *   order over one fit is a walk of one index, never a sort of the joined table.
 * - Decisions are immutable; a fit's content is immutable and its `decided_at` is set once.
 */
const sql = `
CREATE TABLE imports (
  id           TEXT PRIMARY KEY,
  file_name    TEXT NOT NULL,
  sha256       TEXT NOT NULL,
  kind         TEXT NOT NULL,
  state        TEXT NOT NULL CHECK (state IN ('staged', 'published', 'abandoned')),
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  published_at TEXT,
  counts       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(counts)),
  created_by   TEXT NOT NULL,
  session_id   TEXT NOT NULL,
  shell        TEXT NOT NULL,
  CHECK ((state = 'published') = (published_at IS NOT NULL))
);
CREATE INDEX imports_by_sha256 ON imports (sha256);
CREATE INDEX imports_by_state ON imports (state, updated_at);
CREATE TRIGGER imports_final_once_settled BEFORE UPDATE ON imports WHEN OLD.state <> 'staged'
BEGIN SELECT RAISE(ABORT, 'imports: only a staged import can change'); END;
CREATE TRIGGER imports_published_kept BEFORE DELETE ON imports WHEN OLD.state = 'published'
BEGIN SELECT RAISE(ABORT, 'imports: a published import cannot be deleted'); END;

CREATE TABLE tasks (
  id             TEXT PRIMARY KEY,
  import_id      TEXT NOT NULL REFERENCES imports (id),
  question       TEXT,
  candidates     TEXT NOT NULL CHECK (json_valid(candidates) AND json_type(candidates) = 'array'),
  gold           TEXT,
  grp            TEXT,
  raw            TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(raw)),
  content_sha256 TEXT NOT NULL,
  version        INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
  created_at     TEXT NOT NULL
);
CREATE INDEX tasks_by_import ON tasks (import_id);
CREATE TRIGGER tasks_content_immutable
BEFORE UPDATE OF id, import_id, question, candidates, gold, grp, raw, content_sha256, created_at ON tasks
BEGIN SELECT RAISE(ABORT, 'tasks: content is immutable (only version changes)'); END;
CREATE TRIGGER tasks_published_kept BEFORE DELETE ON tasks
WHEN (SELECT state FROM imports WHERE id = OLD.import_id) = 'published'
BEGIN SELECT RAISE(ABORT, 'tasks: a published task cannot be deleted'); END;

CREATE TABLE seats (
  id        TEXT NOT NULL,
  import_id TEXT NOT NULL REFERENCES imports (id),
  model     TEXT,
  PRIMARY KEY (id, import_id)
);
CREATE INDEX seats_by_import ON seats (import_id);

CREATE TABLE moves (
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
  PRIMARY KEY (task_id, idx),
  UNIQUE (task_id, id)
);
CREATE TRIGGER moves_immutable BEFORE UPDATE ON moves
BEGIN SELECT RAISE(ABORT, 'moves: immutable'); END;
CREATE TRIGGER moves_published_kept BEFORE DELETE ON moves
WHEN (SELECT i.state FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = OLD.task_id) = 'published'
BEGIN SELECT RAISE(ABORT, 'moves: a published move cannot be deleted'); END;

CREATE TABLE labels (
  id          TEXT PRIMARY KEY,
  task_id     TEXT NOT NULL REFERENCES tasks (id),
  label       TEXT,
  source      TEXT NOT NULL CHECK (source IN ('random', 'escalation')),
  reviewer    TEXT NOT NULL,
  at          TEXT NOT NULL,
  note        TEXT,
  supersedes  TEXT REFERENCES labels (id),
  adjudicated INTEGER NOT NULL DEFAULT 0 CHECK (adjudicated IN (0, 1)),
  session_id  TEXT NOT NULL,
  CHECK (label IS NOT NULL OR supersedes IS NOT NULL)
);
CREATE INDEX labels_by_task ON labels (task_id);
CREATE UNIQUE INDEX labels_superseded_once ON labels (supersedes) WHERE supersedes IS NOT NULL;
CREATE TRIGGER labels_supersede_same_task BEFORE INSERT ON labels
WHEN NEW.supersedes IS NOT NULL AND (SELECT task_id FROM labels WHERE id = NEW.supersedes) IS NOT NEW.task_id
BEGIN SELECT RAISE(ABORT, 'labels: a label can only supersede a label of the same task'); END;
CREATE TRIGGER labels_no_update BEFORE UPDATE ON labels
BEGIN SELECT RAISE(ABORT, 'labels are append-only: supersede a label instead of updating it'); END;
CREATE TRIGGER labels_no_delete BEFORE DELETE ON labels
BEGIN SELECT RAISE(ABORT, 'labels are append-only: supersede a label instead of deleting it'); END;

CREATE TABLE fits (
  id              TEXT PRIMARY KEY,
  created_at      TEXT NOT NULL,
  method          TEXT NOT NULL,
  hyperparameters TEXT NOT NULL CHECK (json_valid(hyperparameters)),
  reliabilities   TEXT NOT NULL CHECK (json_valid(reliabilities)),
  certificate     TEXT CHECK (certificate IS NULL OR json_valid(certificate)),
  metrics         TEXT CHECK (metrics IS NULL OR json_valid(metrics)),
  parent_fit_id   TEXT REFERENCES fits (id),
  decided_at      TEXT,
  decision_count  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX fits_by_created ON fits (created_at);
CREATE INDEX fits_by_parent ON fits (parent_fit_id);
CREATE TRIGGER fits_content_immutable
BEFORE UPDATE OF id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id ON fits
BEGIN SELECT RAISE(ABORT, 'fits: content is immutable'); END;
CREATE TRIGGER fits_decided_once BEFORE UPDATE OF decided_at, decision_count ON fits
WHEN OLD.decided_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'fits: decisions were already saved'); END;

CREATE TABLE decisions (
  fit_id          TEXT NOT NULL REFERENCES fits (id),
  task_id         TEXT NOT NULL REFERENCES tasks (id),
  decision        TEXT NOT NULL CHECK (decision IN ('act', 'defer')),
  spot_check      INTEGER NOT NULL DEFAULT 0 CHECK (spot_check IN (0, 1)),
  answer          TEXT,
  posterior       TEXT NOT NULL CHECK (json_valid(posterior)),
  stop_round      INTEGER,
  gap             REAL,
  bound           TEXT CHECK (bound IS NULL OR json_valid(bound)),
  disagreement    REAL,
  decided_at      TEXT NOT NULL,
  task_created_at TEXT NOT NULL,
  task_group      TEXT,
  PRIMARY KEY (fit_id, task_id)
);
CREATE INDEX decisions_by_task ON decisions (task_id);
CREATE INDEX decisions_queue_by_gap ON decisions (fit_id, decision, gap, task_id);
CREATE INDEX decisions_queue_by_age ON decisions (fit_id, decision, task_created_at, task_id);
CREATE INDEX decisions_queue_by_disagreement ON decisions (fit_id, decision, disagreement, task_id);
CREATE INDEX decisions_queue_by_group ON decisions (fit_id, decision, task_group, gap, task_id);
CREATE TRIGGER decisions_immutable BEFORE UPDATE ON decisions
BEGIN SELECT RAISE(ABORT, 'decisions are immutable: save a new fit instead'); END;

CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL CHECK (json_valid(value)),
  updated_at TEXT NOT NULL
);

CREATE TABLE reservations (
  task_id    TEXT PRIMARY KEY REFERENCES tasks (id),
  reviewer   TEXT NOT NULL,
  session_id TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX reservations_by_expiry ON reservations (expires_at);

CREATE TABLE audit_log (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  at         TEXT NOT NULL,
  reviewer   TEXT NOT NULL,
  session_id TEXT NOT NULL,
  shell      TEXT NOT NULL CHECK (shell IN ('electron', 'web', 'cli')),
  action     TEXT NOT NULL,
  target     TEXT,
  details    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details))
);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
`

export const migration: Migration = { version: 1, name: 'initial', sql }
