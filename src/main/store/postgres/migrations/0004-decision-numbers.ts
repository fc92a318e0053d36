import type { Migration } from '../../migrations'
import { DECISION_INDEXES } from './0002-decisions-per-fit'

/**
 * A decision's number lists as SQLite stores them since its schema 5 (../../decision-numbers.ts):
 * little-endian float64 bytes, NaN standing for null, the posterior in its task's candidate order —
 * so one codec reads both backends, and a decide writes bytes, not JSON. Every fit's decisions
 * table is rewritten in place (ALTER … TYPE, which fires no row trigger); the conversion runs in
 * session-temporary functions. After this, an older Arbiter refuses the database (its code knows a
 * lower schema version): back the database up with `pg_dump` first.
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
  reason          ${T}
);
CREATE TRIGGER ${name}_immutable BEFORE UPDATE OR DELETE ON ${name}
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('decisions are immutable and kept with their fit');
CREATE TRIGGER ${name}_no_truncate BEFORE TRUNCATE ON ${name}
FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse('decisions are immutable and kept with their fit');`

export { DECISION_INDEXES }

const sql = `
CREATE FUNCTION pg_temp.arbiter_f64(x double precision) RETURNS bytea LANGUAGE sql IMMUTABLE AS $f$
  SELECT set_byte(set_byte(set_byte(set_byte(set_byte(set_byte(set_byte(set_byte(b,
    0, get_byte(b, 7)), 1, get_byte(b, 6)), 2, get_byte(b, 5)), 3, get_byte(b, 4)),
    4, get_byte(b, 3)), 5, get_byte(b, 2)), 6, get_byte(b, 1)), 7, get_byte(b, 0))
  FROM (SELECT float8send(coalesce(x, 'NaN'::double precision)) AS b) s
$f$;
CREATE FUNCTION pg_temp.arbiter_f64_list(v json) RETURNS bytea LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE WHEN v IS NULL THEN NULL ELSE coalesce((
    SELECT string_agg(pg_temp.arbiter_f64((a.e #>> '{}')::double precision), ''::bytea ORDER BY a.n)
    FROM json_array_elements(v) WITH ORDINALITY AS a(e, n)), ''::bytea) END
$f$;
CREATE FUNCTION pg_temp.arbiter_f64_posterior(p json, task text) RETURNS bytea LANGUAGE sql STABLE AS $f$
  SELECT coalesce(string_agg(pg_temp.arbiter_f64((p ->> a.c)::double precision), ''::bytea ORDER BY a.n), ''::bytea)
  FROM tasks t, json_array_elements_text(t.candidates) WITH ORDINALITY AS a(c, n) WHERE t.id = task
$f$;
CREATE FUNCTION pg_temp.arbiter_f64_why(w json) RETURNS bytea LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE WHEN w IS NULL THEN NULL ELSE
    pg_temp.arbiter_f64((w ->> 'round')::double precision) || pg_temp.arbiter_f64((w ->> 'k')::double precision) ||
    pg_temp.arbiter_f64((w ->> 'qhat')::double precision) || pg_temp.arbiter_f64((w ->> 'bias')::double precision) ||
    pg_temp.arbiter_f64((w ->> 'conc')::double precision) ||
    CASE WHEN w -> 'n' IS NULL THEN ''::bytea ELSE pg_temp.arbiter_f64((w ->> 'n')::double precision) END END
$f$;
DO $convert$
DECLARE t text;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'decisions\\_%' ORDER BY tablename LOOP
    EXECUTE format('ALTER TABLE %I
      ALTER COLUMN posterior TYPE bytea USING pg_temp.arbiter_f64_posterior(posterior, task_id),
      ALTER COLUMN bound TYPE bytea USING pg_temp.arbiter_f64_list(bound),
      ALTER COLUMN ks TYPE bytea USING pg_temp.arbiter_f64_list(ks),
      ALTER COLUMN why TYPE bytea USING pg_temp.arbiter_f64_why(why)', t);
  END LOOP;
END
$convert$;
DROP FUNCTION pg_temp.arbiter_f64_why(json);
DROP FUNCTION pg_temp.arbiter_f64_posterior(json, text);
DROP FUNCTION pg_temp.arbiter_f64_list(json);
DROP FUNCTION pg_temp.arbiter_f64(double precision);
`

/** The always-empty table that stands for "no fit yet" (decisions_none) is converted with the others. */
export const migration: Migration = { version: 4, name: 'decision-numbers', sql }
