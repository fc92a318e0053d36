import type { Migration } from '../../migrations'
import { NO_FIT_DECISIONS } from '../../fit-decisions'
import { DECISION_INDEXES } from './0004-decisions-per-fit'

/**
 * Version 9: a decision row keeps what a re-decide under another budget needs of it (for a
 * decide at a million tasks), so that such a decide copies the fit's rows with their verdict
 * recomputed in SQL (../fits.ts) instead of refitting and deciding every task again. Only the
 * verdict depends on the budget (docs/engine.md §8.8: τ = min { t : L_t ≥ 1 − α }):
 * - `peak`: max_t L_t, the bound at the why's round, so the gap is (1 − α) − peak;
 * - `round_keys`: each round's L_t as 8 bytes that sort as the numbers do (../../round-keys.ts),
 *   so "the first round with L_t ≥ 1 − α" is a comparison of BLOB slices, exact, in SQLite's C;
 * - `round_answers`: Ŷ_t per round as a JSON list of candidates, the answer at that round.
 * Tables of fits decided before keep their shape (no row is rewritten): a re-decide from such a
 * fit takes the full path. `decisions_none` is made again in the new shape.
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
  reason          TEXT,
  peak            REAL,
  round_keys      BLOB,
  round_answers   TEXT
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

export const migration: Migration = { version: 9, name: 'decision-rounds', sql }
