/**
 * What one login (or a few) may make the server spend, in one place (docs/architecture.md,
 * "Server limits"). The data limits of what Arbiter accepts are in limits.ts; these bound the
 * server's own memory, threads, disk and main thread, so that one hostile or runaway login cannot
 * slow every other reviewer down. Each is generous for a person at a console: a limit a reviewer
 * meets by working is a bug.
 */

/** The body cap of a JSON call on the web host (413 past it); an upload's slice has its own. */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * How deeply a JSON call's body may nest. JSON.parse recurses once per level, and a megabyte of
 * `[[[[…` costs the main thread (every reviewer's calls) up to a second and a half; every call of the
 * contract nests a handful of levels. The web host counts the brackets before it parses (400 past it).
 */
export const MAX_REQUEST_DEPTH = 64

/**
 * Audit computations running at once. Each is a worker thread holding the whole label log and its
 * cross-validation (~70 MiB on the demo); requests for the same database state share one, and a
 * request for a newer state waits for this many to finish, so the server's memory stays bounded
 * however often the Audit screen is reopened.
 */
export const AUDIT_WORKERS = 1

/**
 * `flags.add` per login: a token bucket of `burst` flags refilled at `perSecond`. A reviewer flags
 * a task after reading it — a few a minute; a script flagging hundreds a second writes the audit
 * log and wakes every console's queue as fast as it can.
 */
export const FLAG_RATE = { perSecond: 10, burst: 20 }

/**
 * The uploads the browser console sends (service/uploads.ts): per file, per login, across every
 * login at once, and the free space the disk keeps after a slice. A file past a cap could never be
 * imported; the total and free-space caps keep the uploads from filling the disk the database
 * (and its journal) write to.
 */
export const UPLOAD_LIMITS = {
  perFileBytes: 4 * 1024 ** 3,
  perLoginBytes: 8 * 1024 ** 3,
  perLoginFiles: 8,
  /** Every login's uploads together: two logins at their own caps. */
  totalBytes: 16 * 1024 ** 3,
  /** A slice is refused unless this much would stay free on the uploads' disk after it. */
  minFreeBytes: 1024 ** 3,
  idleMs: 30 * 60_000
}
