/**
 * Limits that more than one side enforces and that must agree: the readers (src/main/io) refuse a
 * value on its line that the store (src/main/store/validate.ts) would otherwise refuse at write
 * time, without a line number.
 */

/** The longest id (task, move, seat, reviewer) Arbiter keeps, in UTF-16 code units. */
export const MAX_ID_LENGTH = 512
/** The longest reason a flag keeps ("can't decide, because…"): a note to the next reviewer, not a document. */
export const FLAG_REASON_MAX = 2000
