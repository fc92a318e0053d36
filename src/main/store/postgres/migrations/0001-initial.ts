import type { Migration } from '../../migrations'

/**
 * The PostgreSQL schema: the same logical schema as SQLite after its migration 0003 (read the
 * design notes there: visibility through the import row, append-only labels and audit log,
 * immutable published tasks, packed moves, tallies, decisions copying the task's time and group).
 * What differs, and why:
 * - Every text column is `COLLATE "C"`: ids, groups and ISO times must sort bytewise as in SQLite
 *   (keyset paging walks `t.id > ?` in that order), whatever the database's default locale.
 * - JSON columns are `json` (the text as given, validated), not `jsonb`: raw payloads round-trip
 *   with their key order.
 * - `seq` identity columns stand in for SQLite's rowid where insertion order matters (labels,
 *   fits, imports, tasks); the audit log's `seq` is its key, as in SQLite.
 * - Triggers raise through one function; a trigger WHEN cannot hold a subquery, so "a published
 *   task is kept" is a function. TRUNCATE is refused too (it bypasses row triggers).
 * - Search: `task_search.words` is a tsvector of the question's words, lowercased and without
 *   diacritics (dialect.ts `searchLexemes`: the lexemes are made in code, as SQLite's unicode61 tokenizer would),
 *   behind a GIN index; a query is a prefix tsquery.
 * - Queue indexes order NULLs first, as SQLite sorts them, so each queue order stays an index walk.
 * - `data_versions`: one row per open store, bumped by each of its writes; the data version a
 *   store reports is the sum of the OTHER rows (SQLite's PRAGMA data_version: other connections'
 *   commits only).
 */
const T = 'text COLLATE "C"'

const sql = `
CREATE FUNCTION arbiter_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION USING MESSAGE = TG_ARGV[0]; END $$;

CREATE TABLE imports (
  id           ${T} PRIMARY KEY,
  file_name    ${T} NOT NULL,
  sha256       ${T} NOT NULL,
  kind         ${T} NOT NULL,
  state        ${T} NOT NULL CHECK (state IN ('staged', 'published', 'abandoned')),
  created_at   ${T} NOT NULL,
  updated_at   ${T} NOT NULL,
  published_at ${T},
  counts       json NOT NULL DEFAULT '{}',
  created_by   ${T} NOT NULL,
  session_id   ${T} NOT NULL,
  shell        ${T} NOT NULL,
  seq          bigint GENERATED ALWAYS AS IDENTITY,
  CHECK ((state = 'published') = (published_at IS NOT NULL))
);
CREATE INDEX imports_by_sha256 ON imports (sha256);
CREATE INDEX imports_by_state ON imports (state, updated_at);
CREATE TRIGGER imports_final_once_settled BEFORE UPDATE ON imports FOR EACH ROW WHEN (OLD.state <> 'staged')
EXECUTE FUNCTION arbiter_refuse('imports: only a staged import can change');
CREATE TRIGGER imports_published_kept BEFORE DELETE ON imports FOR EACH ROW WHEN (OLD.state = 'published')
EXECUTE FUNCTION arbiter_refuse('imports: a published import cannot be deleted');

CREATE TABLE tasks (
  id             ${T} PRIMARY KEY,
  import_id      ${T} NOT NULL REFERENCES imports (id),
  question       ${T},
  candidates     json NOT NULL CHECK (json_typeof(candidates) = 'array'),
  gold           ${T},
  grp            ${T},
  raw            json NOT NULL DEFAULT '{}',
  content_sha256 ${T} NOT NULL,
  version        integer NOT NULL DEFAULT 0 CHECK (version >= 0),
  created_at     ${T} NOT NULL,
  move_count     integer NOT NULL DEFAULT 0 CHECK (move_count >= 0),
  seq            bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX tasks_by_import ON tasks (import_id);
CREATE TRIGGER tasks_content_immutable
BEFORE UPDATE OF id, import_id, question, candidates, gold, grp, raw, content_sha256, created_at, move_count ON tasks
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('tasks: content is immutable (only version changes)');

/* A published task (and what it owns) cannot be deleted: TG_ARGV[0] names the message. */
CREATE FUNCTION arbiter_keep_published() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE published boolean;
BEGIN
  IF TG_TABLE_NAME = 'tasks' THEN
    SELECT i.state = 'published' INTO published FROM imports i WHERE i.id = OLD.import_id;
  ELSE
    SELECT i.state = 'published' INTO published FROM tasks t JOIN imports i ON i.id = t.import_id WHERE t.id = OLD.task_id;
  END IF;
  IF published THEN RAISE EXCEPTION USING MESSAGE = TG_ARGV[0]; END IF;
  RETURN OLD;
END $$;
CREATE TRIGGER tasks_published_kept BEFORE DELETE ON tasks
FOR EACH ROW EXECUTE FUNCTION arbiter_keep_published('tasks: a published task cannot be deleted');

CREATE TABLE task_moves (
  task_id ${T} PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
  moves   json NOT NULL CHECK (json_typeof(moves) = 'array')
);
CREATE TRIGGER task_moves_immutable BEFORE UPDATE ON task_moves
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('moves: immutable');
CREATE TRIGGER task_moves_published_kept BEFORE DELETE ON task_moves
FOR EACH ROW EXECUTE FUNCTION arbiter_keep_published('moves: a published move cannot be deleted');

CREATE TABLE task_tallies (
  task_id   ${T} PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
  k         integer NOT NULL CHECK (k >= 2),
  seats     json NOT NULL CHECK (json_typeof(seats) = 'array'),
  rounds    json NOT NULL CHECK (json_typeof(rounds) = 'array'),
  counts    bytea NOT NULL,
  vote0     bytea NOT NULL,
  social_p1 double precision NOT NULL
);
CREATE TRIGGER task_tallies_immutable BEFORE UPDATE ON task_tallies
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('task_tallies: derived from immutable moves, so immutable');
CREATE TRIGGER task_tallies_published_kept BEFORE DELETE ON task_tallies
FOR EACH ROW EXECUTE FUNCTION arbiter_keep_published('task_tallies: a published task keeps its tallies');

CREATE TABLE task_search (
  task_id ${T} PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
  words   tsvector NOT NULL
);
CREATE INDEX task_search_words ON task_search USING gin (words);

CREATE TABLE seats (
  id        ${T} NOT NULL,
  import_id ${T} NOT NULL REFERENCES imports (id),
  model     ${T},
  PRIMARY KEY (id, import_id)
);
CREATE INDEX seats_by_import ON seats (import_id);

CREATE TABLE labels (
  id          ${T} PRIMARY KEY,
  task_id     ${T} NOT NULL REFERENCES tasks (id),
  label       ${T},
  source      ${T} NOT NULL CHECK (source IN ('random', 'escalation')),
  reviewer    ${T} NOT NULL,
  at          ${T} NOT NULL,
  note        ${T},
  supersedes  ${T} REFERENCES labels (id),
  adjudicated boolean NOT NULL DEFAULT false,
  session_id  ${T} NOT NULL,
  seq         bigint GENERATED ALWAYS AS IDENTITY,
  CHECK (label IS NOT NULL OR supersedes IS NOT NULL)
);
CREATE INDEX labels_by_task ON labels (task_id, seq);
CREATE UNIQUE INDEX labels_superseded_once ON labels (supersedes) WHERE supersedes IS NOT NULL;
CREATE FUNCTION arbiter_label_supersedes_same_task() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.supersedes IS NOT NULL AND (SELECT task_id FROM labels WHERE id = NEW.supersedes) IS DISTINCT FROM NEW.task_id THEN
    RAISE EXCEPTION 'labels: a label can only supersede a label of the same task';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER labels_supersede_same_task BEFORE INSERT ON labels
FOR EACH ROW EXECUTE FUNCTION arbiter_label_supersedes_same_task();
CREATE TRIGGER labels_no_update BEFORE UPDATE ON labels
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('labels are append-only: supersede a label instead of updating it');
CREATE TRIGGER labels_no_delete BEFORE DELETE ON labels
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('labels are append-only: supersede a label instead of deleting it');
CREATE TRIGGER labels_no_truncate BEFORE TRUNCATE ON labels
FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse('labels are append-only: supersede a label instead of deleting it');

CREATE TABLE fits (
  id              ${T} PRIMARY KEY,
  created_at      ${T} NOT NULL,
  method          ${T} NOT NULL,
  hyperparameters json NOT NULL,
  reliabilities   json NOT NULL,
  certificate     json,
  metrics         json,
  parent_fit_id   ${T} REFERENCES fits (id),
  decided_at      ${T},
  decision_count  integer NOT NULL DEFAULT 0,
  deferred_count  integer CHECK (deferred_count IS NULL OR deferred_count >= 0),
  spot_count      integer CHECK (spot_count IS NULL OR spot_count >= 0),
  seq             bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX fits_by_created ON fits (created_at, seq);
CREATE INDEX fits_by_parent ON fits (parent_fit_id);
CREATE TRIGGER fits_content_immutable
BEFORE UPDATE OF id, created_at, method, hyperparameters, reliabilities, certificate, metrics, parent_fit_id ON fits
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('fits: content is immutable');
CREATE TRIGGER fits_decided_once BEFORE UPDATE OF decided_at, decision_count, deferred_count, spot_count ON fits
FOR EACH ROW WHEN (OLD.decided_at IS NOT NULL)
EXECUTE FUNCTION arbiter_refuse('fits: decisions were already saved');

CREATE TABLE decisions (
  fit_id          ${T} NOT NULL REFERENCES fits (id),
  task_id         ${T} NOT NULL REFERENCES tasks (id),
  decision        ${T} NOT NULL CHECK (decision IN ('act', 'defer')),
  spot_check      boolean NOT NULL DEFAULT false,
  answer          ${T},
  posterior       json NOT NULL,
  stop_round      integer,
  gap             double precision,
  bound           json,
  disagreement    double precision,
  decided_at      ${T} NOT NULL,
  task_created_at ${T} NOT NULL,
  task_group      ${T},
  ks              json,
  why             json,
  reason          ${T},
  PRIMARY KEY (fit_id, task_id)
);
CREATE INDEX decisions_by_task ON decisions (task_id);
CREATE INDEX decisions_queue_by_gap ON decisions (fit_id, decision, gap NULLS FIRST, task_id);
CREATE INDEX decisions_queue_by_age ON decisions (fit_id, decision, task_created_at, task_id);
CREATE INDEX decisions_queue_by_disagreement ON decisions (fit_id, decision, disagreement NULLS FIRST, task_id);
CREATE INDEX decisions_queue_by_group ON decisions (fit_id, decision, task_group NULLS FIRST, gap NULLS FIRST, task_id);
CREATE TRIGGER decisions_immutable BEFORE UPDATE ON decisions
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('decisions are immutable: save a new fit instead');

CREATE TABLE settings (
  key        ${T} PRIMARY KEY,
  value      json NOT NULL,
  updated_at ${T} NOT NULL
);

CREATE TABLE reservations (
  task_id    ${T} PRIMARY KEY REFERENCES tasks (id),
  reviewer   ${T} NOT NULL,
  session_id ${T} NOT NULL,
  expires_at ${T} NOT NULL
);
CREATE INDEX reservations_by_expiry ON reservations (expires_at);

CREATE TABLE audit_log (
  seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at         ${T} NOT NULL,
  reviewer   ${T} NOT NULL,
  session_id ${T} NOT NULL,
  shell      ${T} NOT NULL CHECK (shell IN ('electron', 'web', 'cli')),
  action     ${T} NOT NULL,
  target     ${T},
  details    json NOT NULL DEFAULT '{}'
);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('audit_log is append-only');
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('audit_log is append-only');
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse('audit_log is append-only');

CREATE TABLE data_versions (
  writer ${T} PRIMARY KEY,
  n      bigint NOT NULL DEFAULT 0
);
`

export const migration: Migration = { version: 1, name: 'initial', sql }
