import type { Migration } from '../../migrations'

/**
 * Version 6: the certificate's bound becomes a setting (`engine.bound`, docs/engine.md §8.7) and the
 * defaults change (β = 0.20 absolute, the binomial bound).
 *
 * 1. Each fit stores the bound it ran with. A fit made before has NULL, which reads as
 *    `hoeffding`: the only bound there was. Like the fit's other content it never changes.
 * 2. A gap decomposition may now carry the binomial bound's neighbourhood size `n` as a sixth
 *    float64 after the five of schema 5 (../../decision-numbers.ts); rows without it keep the five,
 *    so no row is rewritten. This version tells an older Arbiter, which would drop such a `why`,
 *    that the file is newer than it.
 * 3. The old-database rule (docs/engine.md §10): a database an older version made and used keeps the
 *    behaviour it had. "Used" means it holds any setting, task or fit: an older Arbiter wrote it and
 *    its fits ran under the old defaults. Each of `engine.method`, `engine.budget`, `engine.bound`
 *    it does not store is written with the old default (per-agent, λ = auto, hoeffding), together
 *    with `notice.defaultsChanged` (what was kept, for Settings to say so until dismissed), in this
 *    migration's transaction, with ONE audit row naming the program (reviewer `arbiter`, session
 *    `migration 0006`; the shell column only knows the three shells, so `cli`). This runs exactly
 *    once, when this version first opens the file. A new database runs it empty: nothing is
 *    written, and it gets the new defaults. The values are literals on purpose: a migration is
 *    frozen history, and the old defaults do not change when the code's defaults do.
 */
const sql = `
ALTER TABLE fits ADD COLUMN bound TEXT CHECK (bound IS NULL OR bound IN ('binomial', 'hoeffding'));
CREATE TRIGGER fits_bound_immutable BEFORE UPDATE OF bound ON fits
BEGIN SELECT RAISE(ABORT, 'fits: content is immutable'); END;

CREATE TEMP TABLE kept_defaults AS
SELECT d.key AS key, d.value AS value, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS at
FROM (SELECT 'engine.bound' AS key, '"hoeffding"' AS value
      UNION ALL SELECT 'engine.budget', '{"kind":"auto"}'
      UNION ALL SELECT 'engine.method', '"per-agent"') AS d
WHERE d.key NOT IN (SELECT key FROM settings)
  AND (EXISTS (SELECT 1 FROM settings) OR EXISTS (SELECT 1 FROM tasks) OR EXISTS (SELECT 1 FROM fits));

INSERT INTO settings (key, value, updated_at) SELECT key, value, at FROM kept_defaults;
INSERT INTO settings (key, value, updated_at)
SELECT 'notice.defaultsChanged', json_object('at', at, 'kept', json(kept)), at
FROM (SELECT max(at) AS at, json_group_object(substr(key, 8), json(value)) AS kept, count(*) AS n FROM kept_defaults)
WHERE n > 0;

INSERT INTO audit_log (at, reviewer, session_id, shell, action, target, details)
SELECT at, 'arbiter', 'migration 0006', 'cli', 'settings.set', target,
       json_object('set', json(written), 'removed', json_array(), 'reason', 'old-database rule: this database keeps the defaults it ran under (ENGINE.md §10)')
FROM (SELECT max(s.updated_at) AS at, group_concat(s.key, ',') AS target, json_group_object(s.key, json(s.value)) AS written, count(*) AS n
      FROM (SELECT key, value, updated_at FROM settings
            WHERE key IN (SELECT key FROM kept_defaults) OR (key = 'notice.defaultsChanged' AND EXISTS (SELECT 1 FROM kept_defaults))
            ORDER BY key) AS s)
WHERE n > 0;

DROP TABLE kept_defaults;
`

export const migration: Migration = { version: 6, name: 'fit-bound-old-defaults', sql }
