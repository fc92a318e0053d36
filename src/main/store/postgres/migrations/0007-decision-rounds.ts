import type { Migration } from '../../migrations'
import { DECISION_INDEXES } from './0002-decisions-per-fit'

/**
 * As SQLite's migration 0009: a decision row keeps what a re-decide under another budget needs of
 * it — `peak` (max_t L_t), `round_keys` (each round's L_t as 8 bytes that sort as the number,
 * ../../round-keys.ts; bytea compares byte by byte) and `round_answers` (Ŷ_t per round, a JSON
 * list) — so such a decide copies the parent fit's rows with new verdicts (../fits.ts).
 * Every existing decisions table gains the three columns, empty (ADD COLUMN without a default
 * rewrites nothing): a fit decided before keeps no rounds, so a re-decide from it decides every task.
 */
const T = 'text COLLATE "C"'

export const DECISIONS_TABLE = (name: string): string => `
CREATE TABLE ${name} (
  task_id         ${T} PRIMARY KEY,
  decision        ${T} NOT NULL CHECK (decision IN ('act', 'defer')),
  spot_check      boolean NOT NULL,
  answer          ${T},
  posterior       bytea NOT NULL,
  stop_round      integer,
  gap             double precision,
  bound           bytea,
  disagreement    double precision,
  task_created_at ${T} NOT NULL,
  task_group      ${T},
  ks              bytea,
  why             bytea,
  reason          ${T},
  peak            double precision,
  round_keys      bytea,
  round_answers   text
);
CREATE TRIGGER ${name}_immutable BEFORE UPDATE OR DELETE ON ${name}
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('decisions are immutable and kept with their fit');
CREATE TRIGGER ${name}_no_truncate BEFORE TRUNCATE ON ${name}
FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse('decisions are immutable and kept with their fit');`

export { DECISION_INDEXES }

const sql = `
DO $add$
DECLARE t text;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'decisions\\_%' ORDER BY tablename LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN peak double precision, ADD COLUMN round_keys bytea, ADD COLUMN round_answers text', t);
  END LOOP;
END
$add$;
`

export const migration: Migration = { version: 7, name: 'decision-rounds', sql }
