/**
 * Browser sessions of the web host ("the cookie is the login token"). A login URL's
 * token is exchanged once, at `/?token=…`, for a session cookie that is not the token: a random
 * nonce and its HMAC under the login's token. Cookies ignore ports, so every service on 127.0.0.1
 * receives the cookie — it must not be a credential it could replay elsewhere, and it reveals
 * nothing of the token. It holds for as long as its login's token does: a restart draws new tokens,
 * so every cookie of the previous start is void (the console says the server restarted), while a
 * server back with the same token (a network blip; tests) still knows its browsers. The exchange is
 * refused when a page of another site navigates to the login URL (a browser says so in
 * `Sec-Fetch-Site`), and a browser already signed in as another login is asked before it switches.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Login } from './web-identity'

const mac = (token: string, nonce: string): Buffer => createHmac('sha256', token).update(`arbiter-session:${nonce}`).digest()

/** A new session cookie value for `login`: `<nonce>.<HMAC(token, nonce)>`, base64url. */
export function newSession(login: Login): string {
  const nonce = randomBytes(18).toString('base64url')
  return `${nonce}.${mac(login.token, nonce).toString('base64url')}`
}

/** The login whose token signed this session cookie value; every login is checked, in constant time each. */
export function sessionLogin(value: string | null | undefined, logins: readonly Login[]): Login | null {
  if (!value) return null
  const dot = value.indexOf('.')
  if (dot <= 0) return null
  const given = Buffer.from(value.slice(dot + 1), 'base64url')
  let found: Login | null = null
  for (const l of logins) {
    const want = mac(l.token, value.slice(0, dot))
    if (given.length === want.length && timingSafeEqual(given, want) && found === null) found = l
  }
  return found
}

/**
 * Whether the request that brings a login URL came from the user (typed, pasted, a bookmark, an
 * app opening it: `Sec-Fetch-Site: none`) or from our own pages; a tool without fetch metadata
 * (curl, the CLI) passes. A link or script on any other site — another port of 127.0.0.1 is the
 * same site but another origin — cannot sign this browser in.
 */
export function exchangeAllowed(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site']
  return site === undefined || site === 'none' || site === 'same-origin'
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

/** The token of the switch form's body (`application/x-www-form-urlencoded`), or null. */
export function formToken(body: string): string | null {
  return new URLSearchParams(body).get('token')
}
