import type { Migration } from '../../migrations'

/**
 * Version 3, SQLite's migration 0006 in this dialect (read the why there): each fit stores the
 * bound it ran with (NULL, before: `hoeffding`), immutable like the rest of the fit; a `why` may
 * carry `n` (JSON here, so only readers change); and the old-database rule of docs/engine.md §10 — a
 * database holding any setting, task or fit, made by an older version, gets each of
 * `engine.method`, `engine.budget`, `engine.bound` it does not store written with the old default
 * (per-agent, λ = auto, hoeffding) and `notice.defaultsChanged`, in this transaction, with ONE audit
 * row (reviewer `arbiter`, session `migration 0003`, shell `cli`). A new database writes nothing.
 */
const sql = `
ALTER TABLE fits ADD COLUMN bound text CHECK (bound IS NULL OR bound IN ('binomial', 'hoeffding'));
CREATE TRIGGER fits_bound_immutable BEFORE UPDATE OF bound ON fits
FOR EACH ROW EXECUTE FUNCTION arbiter_refuse('fits: content is immutable');

CREATE TEMP TABLE kept_defaults AS
SELECT d.key, d.value::json AS value, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
FROM (VALUES ('engine.bound', '"hoeffding"'), ('engine.budget', '{"kind":"auto"}'), ('engine.method', '"per-agent"')) AS d (key, value)
WHERE d.key NOT IN (SELECT key FROM settings)
  AND (EXISTS (SELECT 1 FROM settings) OR EXISTS (SELECT 1 FROM tasks) OR EXISTS (SELECT 1 FROM fits));

INSERT INTO settings (key, value, updated_at) SELECT key, value, at FROM kept_defaults;
INSERT INTO settings (key, value, updated_at)
SELECT 'notice.defaultsChanged', json_build_object('at', max(at), 'kept', json_object_agg(substr(key, 8), value ORDER BY key)), max(at)
FROM kept_defaults HAVING count(*) > 0;

INSERT INTO audit_log (at, reviewer, session_id, shell, action, target, details)
SELECT max(updated_at), 'arbiter', 'migration 0003', 'cli', 'settings.set', string_agg(key, ',' ORDER BY key),
       json_build_object('set', json_object_agg(key, value ORDER BY key), 'removed', json_build_array(),
                         'reason', 'old-database rule: this database keeps the defaults it ran under (ENGINE.md §10)')
FROM settings
WHERE key IN (SELECT key FROM kept_defaults) OR (key = 'notice.defaultsChanged' AND EXISTS (SELECT 1 FROM kept_defaults))
HAVING count(*) > 0;

DROP TABLE kept_defaults;
`

export const migration: Migration = { version: 3, name: 'fit-bound-old-defaults', sql }
