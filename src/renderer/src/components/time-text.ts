/**
 * Times as the console writes them, each style's formatter made once. `Date#toLocale…String` with
 * options builds a new Intl formatter on every call, far slower than reusing a kept one, and
 * Review's history writes twenty times on every render: with several renders per resolve → next,
 * every key paid for it.
 */
const CLOCK = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' })
const SHORT = new Intl.DateTimeFormat([], { dateStyle: 'short', timeStyle: 'short' })
const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })
const DAY_CLOCK = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })

type When = string | number | Date

/** "14:05" */
export const clockTime = (at: When): string => CLOCK.format(new Date(at))
/** "02/12/2026, 14:05" */
export const shortDateTime = (at: When): string => SHORT.format(new Date(at))
/** "Dec 2" */
export const dayText = (at: When): string => DAY.format(new Date(at))
/** "Dec 2, 14:05" */
export const dayClock = (at: When): string => DAY_CLOCK.format(new Date(at))
