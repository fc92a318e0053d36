import type { Migration, MigrationDb } from '../../migrations'
import { decisionsTable, NO_FIT_DECISIONS } from '../../fit-decisions'

/**
 * Each fit's decisions move to a table of their own (../../fit-decisions.ts says why), and the
 * shared `decisions` table goes. The per-fit table has no fit_id (the table is the fit) and no
 * decided_at (the fit's); its rows are validated by the store as they are written (JSON included),
 * so the table spends no CHECK on JSON. WITHOUT ROWID: the row is its key's one B-tree, appended
 * in task-id order. The queue indexes are built after the last row (DECISION_INDEXES), each
 * ending in the task id (the key), so every queue order is one covering walk.
 * No foreign key to `tasks`: decisions are only written for published tasks, which can never be
 * deleted, and a key to every fit's table would make each staged task an abandoned import
 * deletes probe all of them.
 */
export const DECISIONS_TABLE = (name: string): string => `
CREATE TABLE ${name} (
  task_id         TEXT PRIMARY KEY,
  decision        TEXT NOT NULL CHECK (decision IN ('act', 'defer')),
  spot_check      INTEGER NOT NULL CHECK (spot_check IN (0, 1)),
  answer          TEXT,
  posterior       TEXT NOT NULL,
  stop_round      INTEGER,
  gap             REAL,
  bound           TEXT,
  disagreement    REAL,
  task_created_at TEXT NOT NULL,
  task_group      TEXT,
  ks              TEXT,
  why             TEXT,
  reason          TEXT
) WITHOUT ROWID;
CREATE TRIGGER ${name}_immutable BEFORE UPDATE ON ${name}
BEGIN SELECT RAISE(ABORT, 'decisions are immutable: save a new fit instead'); END;
CREATE TRIGGER ${name}_kept BEFORE DELETE ON ${name}
BEGIN SELECT RAISE(ABORT, 'decisions are kept with their fit'); END;`

/** The queue orders (task-filter.ts `orderBy`), built once the table is full. */
export const DECISION_INDEXES = (name: string): string => `
CREATE INDEX ${name}_by_gap ON ${name} (decision, gap);
CREATE INDEX ${name}_by_age ON ${name} (decision, task_created_at);
CREATE INDEX ${name}_by_disagreement ON ${name} (decision, disagreement);
CREATE INDEX ${name}_by_group ON ${name} (decision, task_group, gap);`

/**
 * Also `tally_packs` (../../tally-pack.ts): each published import's tallies, packed by ten
 * thousand tasks, written once (all of an import's packs in one transaction) the first time a
 * fit reads the import, and read by every later fit and decide instead of a row per task. Only a
 * published import has packs, and they are kept with it.
 */
const PACKS = `
CREATE TABLE tally_packs (
  import_id  TEXT NOT NULL REFERENCES imports (id),
  part       INTEGER NOT NULL CHECK (part >= 0),
  tasks      INTEGER NOT NULL CHECK (tasks > 0),
  first_task TEXT NOT NULL,
  last_task  TEXT NOT NULL,
  ids        TEXT NOT NULL,
  dict       TEXT NOT NULL,
  meta       BLOB NOT NULL,
  ints       BLOB NOT NULL,
  PRIMARY KEY (import_id, part)
);
CREATE TRIGGER tally_packs_published_only BEFORE INSERT ON tally_packs
WHEN (SELECT state FROM imports WHERE id = NEW.import_id) IS NOT 'published'
BEGIN SELECT RAISE(ABORT, 'tally_packs: only a published import is packed'); END;
CREATE TRIGGER tally_packs_immutable BEFORE UPDATE ON tally_packs
BEGIN SELECT RAISE(ABORT, 'tally_packs: derived from immutable tallies, so immutable'); END;
CREATE TRIGGER tally_packs_kept BEFORE DELETE ON tally_packs
BEGIN SELECT RAISE(ABORT, 'tally_packs: kept with their published import'); END;`

const sql = `
${PACKS}
${DECISIONS_TABLE(NO_FIT_DECISIONS)}
${DECISION_INDEXES(NO_FIT_DECISIONS)}
CREATE TRIGGER ${NO_FIT_DECISIONS}_empty BEFORE INSERT ON ${NO_FIT_DECISIONS}
BEGIN SELECT RAISE(ABORT, '${NO_FIT_DECISIONS} stays empty: it stands for "no fit yet"'); END;
`

/** Every fit's rows into its own table, indexed; then the shared table and its triggers go. */
function moveDecisions(db: MigrationDb): void {
  for (const { id } of db.all<{ id: string }>('SELECT DISTINCT fit_id AS id FROM decisions ORDER BY fit_id')) {
    const name = decisionsTable(id)
    db.exec(DECISIONS_TABLE(name))
    db.run(
      `INSERT INTO ${name} (task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, disagreement,
         task_created_at, task_group, ks, why, reason)
       SELECT task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, disagreement,
         task_created_at, task_group, ks, why, reason FROM decisions WHERE fit_id = ? ORDER BY task_id`,
      id
    )
    db.exec(DECISION_INDEXES(name))
  }
  db.exec('DROP TABLE decisions')
}

export const migration: Migration = { version: 4, name: 'decisions-per-fit', sql, data: moveDecisions }
