import type { Migration } from '../../migrations'
import { NO_FIT_DECISIONS } from '../../fit-decisions'
import { DECISION_INDEXES } from './0004-decisions-per-fit'

/**
 * A fit decided from now on stores its number lists — posterior, bound, k, the gap decomposition —
 * as float64 BLOBs (../../decision-numbers.ts says why and how), not JSON text. Tables of fits
 * decided before keep their JSON text, which the readers still take, so no row is rewritten; the
 * version tells an older Arbiter, which would misread a BLOB, that this file is newer than it.
 * The always-empty `decisions_none` is made again in the new shape, so every decisions table
 * created from here on has it.
 */
export const DECISIONS_TABLE = (name: string): string => `
CREATE TABLE ${name} (
  task_id         TEXT PRIMARY KEY,
  decision        TEXT NOT NULL CHECK (decision IN ('act', 'defer')),
  spot_check      INTEGER NOT NULL CHECK (spot_check IN (0, 1)),
  answer          TEXT,
  posterior       BLOB NOT NULL,
  stop_round      INTEGER,
  gap             REAL,
  bound           BLOB,
  disagreement    REAL,
  task_created_at TEXT NOT NULL,
  task_group      TEXT,
  ks              BLOB,
  why             BLOB,
  reason          TEXT
) WITHOUT ROWID;
CREATE TRIGGER ${name}_immutable BEFORE UPDATE ON ${name}
BEGIN SELECT RAISE(ABORT, 'decisions are immutable: save a new fit instead'); END;
CREATE TRIGGER ${name}_kept BEFORE DELETE ON ${name}
BEGIN SELECT RAISE(ABORT, 'decisions are kept with their fit'); END;`

const sql = `
DROP TABLE ${NO_FIT_DECISIONS};
${DECISIONS_TABLE(NO_FIT_DECISIONS)}
${DECISION_INDEXES(NO_FIT_DECISIONS)}
CREATE TRIGGER ${NO_FIT_DECISIONS}_empty BEFORE INSERT ON ${NO_FIT_DECISIONS}
BEGIN SELECT RAISE(ABORT, '${NO_FIT_DECISIONS} stays empty: it stands for "no fit yet"'); END;
`

export const migration: Migration = { version: 5, name: 'decision-numbers', sql }
