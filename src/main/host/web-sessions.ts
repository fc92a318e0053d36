/**
 * Browser sessions of the web host. A login URL's token is exchanged once, at `/?token=…`, for a
 * session: a cookie and a secret, neither of them the token.
 * - The cookie (`<nonce>.<HMAC(token, nonce)>`) lets the browser load the console's pages: a
 *   navigation cannot carry a header. Cookies ignore ports, so every service on 127.0.0.1 receives
 *   it: alone it never calls the API.
 * - The secret (`HMAC(token, secret-label, nonce)`) reaches the page in the redirect's fragment
 *   (never sent over the network), which keeps it in its own origin's localStorage — per port, so
 *   another local service never sees it — and sends it in SESSION_SECRET_HEADER with every API
 *   call, the event stream included. A new tab of the same origin reads it there.
 * A session ends when its browser signs out, when it has made no API call for `idleMs` (sliding),
 * or when its login's token does: a restart draws new tokens, so every session of the previous
 * start is void, while a server back with the same token (a network blip; tests) still knows its
 * browsers — only what ended in this process (sign-outs, expiries) is kept in memory.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Login } from './web-identity'

export { SECRET_FRAGMENT, SESSION_SECRET_HEADER } from '../../shared/web-session'
/** A session with no API call for this long ends (docs/architecture.md, security model). */
export const DEFAULT_SESSION_IDLE_MS = 12 * 60 * 60 * 1000

const mac = (token: string, label: string, nonce: string): Buffer => createHmac('sha256', token).update(`${label}:${nonce}`).digest()
const cookieMac = (token: string, nonce: string): Buffer => mac(token, 'arbiter-session', nonce)

export interface Session {
  nonce: string
  login: Login
}

/** The cookie value of a session: `<nonce>.<HMAC(token, nonce)>`, base64url. */
export function sessionCookieValue(s: Session): string {
  return `${s.nonce}.${cookieMac(s.login.token, s.nonce).toString('base64url')}`
}

/** The secret of a session; only the server, which holds the token, can derive it. */
export function sessionSecret(s: Session): string {
  return mac(s.login.token, 'arbiter-secret', s.nonce).toString('base64url')
}

/** Whether `given` (the request's SESSION_SECRET_HEADER) is this session's secret, in constant time. */
export function secretMatches(s: Session, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(given)
  const b = Buffer.from(sessionSecret(s))
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The session this cookie value names (every login is checked, in constant time each), or null. */
export function sessionOf(value: string | null | undefined, logins: readonly Login[]): Session | null {
  if (!value) return null
  const dot = value.indexOf('.')
  if (dot <= 0) return null
  const nonce = value.slice(0, dot)
  const given = Buffer.from(value.slice(dot + 1), 'base64url')
  let found: Login | null = null
  for (const l of logins) {
    const want = cookieMac(l.token, nonce)
    if (given.length === want.length && timingSafeEqual(given, want) && found === null) found = l
  }
  return found === null ? null : { nonce, login: found }
}

export interface SessionClock {
  idleMs: number
  now: () => number
}

/** What this process knows of its sessions: when each last called, and which have ended. */
export function createSessionTable(clock: SessionClock) {
  const lastSeen = new Map<string, number>()
  const ended = new Set<string>()
  const expired = (nonce: string, now: number): boolean => {
    const seen = lastSeen.get(nonce)
    return seen !== undefined && now - seen > clock.idleMs
  }
  return {
    /** A new session of `login`, its idle time counted from now. */
    open(login: Login): Session {
      const nonce = randomBytes(18).toString('base64url')
      lastSeen.set(nonce, clock.now())
      return { nonce, login }
    },
    /** Whether the session still holds (not signed out, not idle too long); it does not count as a call. */
    live(s: Session): boolean {
      if (ended.has(s.nonce)) return false
      if (!expired(s.nonce, clock.now())) return true
      this.end(s.nonce)
      return false
    },
    /** An API call of the session: its idle time starts again. */
    touch(s: Session): void {
      lastSeen.set(s.nonce, clock.now())
    },
    end(nonce: string): void {
      ended.add(nonce)
      lastSeen.delete(nonce)
    },
    /** Ends every session idle too long (the host's periodic sweep), returning their nonces. */
    sweep(): string[] {
      const now = clock.now()
      const out: string[] = []
      for (const nonce of lastSeen.keys()) if (expired(nonce, now)) out.push(nonce)
      for (const nonce of out) {
        ended.add(nonce)
        lastSeen.delete(nonce)
      }
      return out
    }
  }
}
export type SessionTable = ReturnType<typeof createSessionTable>

/**
 * Whether the request that brings a login URL came from the user (typed, pasted, a bookmark, an
 * app opening it: `Sec-Fetch-Site: none`) or from our own pages (`same-origin`). A link or script
 * on any other site — another port of 127.0.0.1 is the same site but another origin — cannot sign
 * this browser in. 'ask': no fetch metadata at all (a browser too old to send it, or a tool):
 * the browser is asked to confirm with a form only our own page can post.
 */
export function exchangeAllowed(req: IncomingMessage): boolean | 'ask' {
  const site = req.headers['sec-fetch-site']
  if (site === undefined) return 'ask'
  return site === 'none' || site === 'same-origin'
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)

const who = (login: Login): string => (login.reviewer === null ? 'this console' : escapeHtml(login.reviewer))

/** No script and nothing remote; the page's own style sheet inline; the switch form may post to us only. */
export const SESSION_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;max-width:36rem;margin:12vh auto;padding:0 1.5rem;color:#1f2933;background:#f7f8fa}' +
  'h1{font-size:1.35rem}button{font:inherit;padding:.45rem 1rem;border-radius:6px;border:1px solid #3b5bdb;background:#3b5bdb;color:#fff;cursor:pointer}' +
  'a{color:#3b5bdb}@media (prefers-color-scheme:dark){body{color:#e4e7eb;background:#12161c}a{color:#91a7ff}}'

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} — Arbiter</title><style>${STYLE}</style></head><body><h1>${title}</h1>${body}</body></html>`
}

export function crossSitePage(): string {
  return page(
    'Sign-in link refused',
    '<p>This Arbiter sign-in link was opened by another site, so it was not used: a page cannot sign this browser in on your behalf.</p>' +
      '<p>If the link is yours, paste it into the address bar yourself.</p>'
  )
}

/** Asks a browser signed in as `current` whether it switches to `next` (the form posts the token back). */
export function switchPage(current: Login, next: Login, token: string): string {
  return page(
    'Switch this browser to another login?',
    `<p>This browser is signed in as <strong>${who(current)}</strong>. The link you opened signs in as <strong>${who(next)}</strong>.</p>` +
      `<form method="post" action="/session"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
      `<button type="submit">Switch to ${who(next)}</button></form>` +
      `<p><a href="/">Stay signed in as ${who(current)}</a></p>`
  )
}

/** Asks a browser that sent no fetch metadata to confirm the sign-in (the form posts the token back). */
export function confirmPage(next: Login, token: string): string {
  return page(
    'Sign in to Arbiter?',
    `<p>The link you opened signs this browser in as <strong>${who(next)}</strong>. Your browser did not say where the link came from, so Arbiter asks first.</p>` +
      `<form method="post" action="/session"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
      `<button type="submit">Sign in as ${who(next)}</button></form>`
  )
}

/** The token of the switch or confirm form's body (`application/x-www-form-urlencoded`), or null. */
export function formToken(body: string): string | null {
  return new URLSearchParams(body).get('token')
}
