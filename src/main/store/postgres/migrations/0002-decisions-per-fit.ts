import type { Migration } from '../../migrations'
import { NO_FIT_DECISIONS } from '../../fit-decisions'

/**
 * Each fit's decisions move to a table of their own, as in SQLite's migration 0004 (read the why
 * there and in ../../fit-decisions.ts); the shared `decisions` table goes. Here SQL can name
 * tables at run time, so the move is one DO block. Indexes end in the task id explicitly
 * (PostgreSQL does not append the key) and order NULLs first, as SQLite does.
 */
const T = 'text COLLATE "C"'

export const DECISIONS_TABLE = (name: string): string => `
CREATE TABLE ${name} (
  task_id         ${T} PRIMARY KEY,
  decision        ${T} NOT NULL CHECK (decision IN ('act', 'defer')),
  spot_check      boolean NOT NULL,
  answer          ${T},
  posterior       json NOT NULL,
  stop_round      integer,
  gap             double precision,
  bound           json,
  disagreement    double precision,
  task_created_at ${T} NOT NULL,
  task_group      ${T},
  ks              json,
  why             json,
  reason          ${T}
);
CREATE TRIGGER ${name}_immutable BEFORE UPDATE OR DELETE ON ${name}
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('decisions are immutable and kept with their fit');
CREATE TRIGGER ${name}_no_truncate BEFORE TRUNCATE ON ${name}
FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse('decisions are immutable and kept with their fit');`

export const DECISION_INDEXES = (name: string): string => `
CREATE INDEX ${name}_by_gap ON ${name} (decision, gap NULLS FIRST, task_id);
CREATE INDEX ${name}_by_age ON ${name} (decision, task_created_at, task_id);
CREATE INDEX ${name}_by_disagreement ON ${name} (decision, disagreement NULLS FIRST, task_id);
CREATE INDEX ${name}_by_group ON ${name} (decision, task_group NULLS FIRST, gap NULLS FIRST, task_id);`

/** Also `tally_packs`, as in SQLite's 0004 (../../tally-pack.ts). */
const PACKS = `
CREATE TABLE tally_packs (
  import_id  ${T} NOT NULL REFERENCES imports (id),
  part       integer NOT NULL CHECK (part >= 0),
  tasks      integer NOT NULL CHECK (tasks > 0),
  first_task ${T} NOT NULL,
  last_task  ${T} NOT NULL,
  ids        text NOT NULL,
  dict       text NOT NULL,
  meta       bytea NOT NULL,
  ints       bytea NOT NULL,
  PRIMARY KEY (import_id, part)
);
CREATE FUNCTION arbiter_tally_pack_published() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT state FROM imports WHERE id = NEW.import_id) IS DISTINCT FROM 'published' THEN
    RAISE EXCEPTION USING MESSAGE = 'tally_packs: only a published import is packed';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER tally_packs_published_only BEFORE INSERT ON tally_packs
FOR EACH ROW EXECUTE FUNCTION arbiter_tally_pack_published();
CREATE TRIGGER tally_packs_immutable BEFORE UPDATE OR DELETE ON tally_packs
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('tally_packs: derived from immutable tallies, kept with their published import');
CREATE TRIGGER tally_packs_no_truncate BEFORE TRUNCATE ON tally_packs
FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse('tally_packs: derived from immutable tallies, kept with their published import');`

const sql = `
${PACKS}
${DECISIONS_TABLE(NO_FIT_DECISIONS)}
${DECISION_INDEXES(NO_FIT_DECISIONS)}
CREATE TRIGGER ${NO_FIT_DECISIONS}_empty BEFORE INSERT ON ${NO_FIT_DECISIONS}
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('${NO_FIT_DECISIONS} stays empty: it stands for "no fit yet"');

DO $move$
DECLARE f text; t text;
BEGIN
  FOR f IN SELECT DISTINCT fit_id FROM decisions ORDER BY fit_id LOOP
    t := 'decisions_' || lower(replace(f, '-', ''));
    EXECUTE format($ddl$${DECISIONS_TABLE('%1$s')}$ddl$, t);
    EXECUTE format('INSERT INTO %1$s (task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, disagreement,
        task_created_at, task_group, ks, why, reason)
      SELECT task_id, decision, spot_check, answer, posterior, stop_round, gap, bound, disagreement,
        task_created_at, task_group, ks, why, reason FROM decisions WHERE fit_id = %2$L ORDER BY task_id', t, f);
    EXECUTE format($ddl$${DECISION_INDEXES('%1$s')}$ddl$, t);
  END LOOP;
END
$move$;
DROP TABLE decisions;
`

export const migration: Migration = { version: 2, name: 'decisions-per-fit', sql }
