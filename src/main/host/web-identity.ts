/**
 * Who calls the web host ("Reviewer identity"). A token is a login:
 * - `serve` alone issues one login whose reviewer is the reviewer-name setting (one person, or a
 *   team that trusts each other to set their own name) — as before;
 * - `serve --reviewer alice --reviewer bob` issues one login per reviewer. Its reviewer is fixed:
 *   the token says who calls, and the reviewer-name setting cannot change it.
 * Tokens are random per launch and kept in memory only: nothing secret is ever written to disk,
 * and a restart invalidates every link (each reviewer opens their new URL).
 *
 * Sessions: each browser tab sends its own id in SESSION_HEADER, so one reviewer's two tabs are two
 * sessions (a reservation belongs to one session). The id the service sees is the login's own
 * prefix + the tab's id: a caller can only ever name sessions of its own login, never take over
 * another reviewer's reservation by sending their session id. Without the header (curl, the CLI,
 * tests) a call runs in the login's one default session.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { settingsSchema, type CallContext } from '../../shared/api'
import { tokensEqual } from './web-auth'

export const SESSION_HEADER = 'x-arbiter-session'
const TAB_ID = /^[A-Za-z0-9_-]{8,64}$/

export interface Login {
  /** null: the caller's reviewer is the reviewer-name setting (a launch without --reviewer). */
  reviewer: string | null
  token: string
  /** Every session id of this login starts with it; null: the service's own session id. */
  sessionPrefix: string | null
}

/** The reviewer names of `serve --reviewer`, trimmed; an empty, too long or repeated name is refused. */
export function checkReviewerNames(names: readonly string[]): string[] {
  const out: string[] = []
  for (const raw of names) {
    const parsed = settingsSchema.shape.reviewer.safeParse(raw)
    if (!parsed.success) throw new Error(`reviewer name ${JSON.stringify(raw)} must be 1 to 80 characters (not only blanks)`)
    if (/[\p{Cc}]/u.test(parsed.data)) throw new Error(`reviewer name ${JSON.stringify(raw)} contains a control character`)
    if (out.includes(parsed.data)) throw new Error(`reviewer ${JSON.stringify(parsed.data)} is named twice`)
    out.push(parsed.data)
  }
  return out
}

const newToken = (): string => randomBytes(24).toString('base64url')

/** One login per reviewer, or the single setting-named login when no reviewer is given. */
export function createLogins(reviewers: readonly string[] | undefined, token?: string): Login[] {
  if (reviewers === undefined || reviewers.length === 0) return [{ reviewer: null, token: token ?? newToken(), sessionPrefix: null }]
  if (token !== undefined) throw new Error('a fixed token is for a single login; per-reviewer tokens are always random')
  return checkReviewerNames(reviewers).map((reviewer) => ({ reviewer, token: newToken(), sessionPrefix: `login-${randomUUID()}` }))
}

/** The login a token opens; every login is compared, so the time taken says nothing about which. */
export function findLogin(given: string | null | undefined, logins: readonly Login[]): Login | null {
  let found: Login | null = null
  for (const l of logins) if (tokensEqual(given, l.token) && found === null) found = l
  return found
}

/** The tab's id from SESSION_HEADER: null when absent, 'bad' when it is not 8–64 of [A-Za-z0-9_-]. */
export function tabOf(req: IncomingMessage): string | null | 'bad' {
  const h = req.headers[SESSION_HEADER]
  if (h === undefined) return null
  return typeof h === 'string' && TAB_ID.test(h) ? h : 'bad'
}

/** The context of one call: the process's context, with the login's reviewer and the tab's session. */
export function callContext(base: CallContext, login: Login, tab: string | null): CallContext {
  const session = login.sessionPrefix ?? base.sessionId
  const sessionId = tab === null ? session : `${session}/${tab}`
  return login.reviewer === null ? { ...base, sessionId } : { ...base, sessionId, reviewer: login.reviewer, reviewerFromToken: true }
}
