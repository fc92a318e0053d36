import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { CallContext, ServerHandlers } from '../../shared/api'
import { HTTP_STATUS } from '../../shared/errors'
import type { ApiEvent } from '../../shared/events'
import { MAX_BODY_BYTES, MAX_REQUEST_DEPTH } from '../../shared/server-limits'
import { SIGN_OUT_PATH } from '../../shared/web-session'
import { dispatch } from './dispatch'
import { nestsDeeperThan } from './json-depth'
import { SECURITY_HEADERS } from './hardening'
import { signedOutPage, wantsHtml } from './signed-out-page'
import { receiveSlice } from './web-upload'
import { readStatic } from './static-files'
import { bearer, clearedSessionCookie, cookieCount, cookieName, hostOk, originOk, readCookie, sessionCookie } from './web-auth'
import { callContext, createLogins, findLogin, tabOf, type Login } from './web-identity'
import { confirmPage, crossSitePage, exchangeAllowed, formToken, SESSION_PAGE_CSP, switchPage } from './web-sessions'
import {
  createSessionTable,
  DEFAULT_SESSION_IDLE_MS,
  SECRET_FRAGMENT,
  secretMatches,
  SESSION_SECRET_HEADER,
  sessionCookieValue,
  sessionOf,
  sessionSecret,
  type Session
} from './web-sessions'

/** The body cap of a JSON call (server-limits.ts); an upload's slice has its own (web-upload.ts). */
export { MAX_BODY_BYTES }
/**
 * Set on the 401 that refuses a request without a valid login (the renderer's http-bridge reads it):
 * 'required' (no session this server knows: it restarted) or 'ended' (signed out, or idle too long).
 */
export const LOGIN_REQUIRED_HEADER = 'X-Arbiter-Login'

export interface WebHostOptions {
  handlers: ServerHandlers
  subscribe: (listener: (event: ApiEvent) => void) => () => void
  /** The built renderer (out/renderer); nothing outside it is ever served. */
  rendererDir: string
  /** The process's context; each call gets its login's reviewer and its tab's session on top. */
  context: () => CallContext
  port?: number
  /** When `port` is taken by another program, listen on a free one instead of failing (`busyPort` says so). */
  portFallback?: boolean
  /** A fixed token for the single login (tests); per-reviewer tokens are always random. */
  token?: string
  /** One login per reviewer (`serve --reviewer`); absent or empty: one login, reviewer from Settings. */
  reviewers?: readonly string[]
  /** A browser session with no API call for this long ends (default DEFAULT_SESSION_IDLE_MS). */
  sessionIdleMs?: number
  /** The clock of session expiry (tests move it instead of waiting). */
  clock?: () => number
}

export interface LoginLink {
  /** null: the login whose reviewer is the reviewer-name setting. */
  reviewer: string | null
  token: string
  /** The URL to open: it carries the token once, then the browser session (cookie and secret) takes over. */
  url: string
}

export interface WebHost {
  url: string
  /** The first login's URL and token (the only ones without --reviewer). */
  loginUrl: string
  port: number
  /** The port asked for that another program held (the host fell back to `port`), else null. */
  busyPort: number | null
  token: string
  logins: LoginLink[]
  close(): Promise<void>
}

/**
 * The browser shell (docs/architecture.md): the built renderer and the contract over HTTP, on 127.0.0.1
 * only. Checks run in a fixed order on every request: Host (403) → one session cookie at most (401)
 * → login (401: a live session's cookie, plus its secret for an API call, or the token) → Origin
 * on non-GET (403) → path (404); an API call's tab session header, when sent, must be well formed
 * (400). The token names the login, and the login the caller (web-identity.ts); a browser holds a
 * session derived from it, never the token (web-sessions.ts).
 */
export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const logins = createLogins(opts.reviewers, opts.token)
  /** Each open event stream, with the nonce of the browser session that opened it (null: a token). */
  const streams = new Map<ServerResponse, string | null>()
  const sessions = createSessionTable({ idleMs: opts.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS, now: opts.clock ?? Date.now })
  let port = 0

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error('[arbiter] web host error:', error)
      if (!res.headersSent) send(res, 500, { ok: false, error: { code: 'internal', message: 'internal error', details: null } })
      else res.end()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v)
    if (!hostOk(req, port)) return send(res, 403, errorBody('unauthorized', 'forbidden host'))
    const url = requestUrl(req.url, port)
    if (!url) return send(res, 400, errorBody('bad_input', 'bad request target'))

    // Cookie tossing: a page on another port planted a second session cookie, which the browser
    // may send first. Which one is ours cannot be told, so neither is used.
    if (cookieCount(req, cookieName(port)) > 1) {
      return send(res, 401, errorBody('unauthorized', `this request carries two ${cookieName(port)} cookies: another page on this computer set one; clear this site's cookies, then open your login URL again`))
    }
    const cookie = readCookie(req, cookieName(port))
    const fromCookie = sessionOf(cookie, logins)

    const queryToken = url.searchParams.get('token')
    if (req.method === 'GET' && url.pathname === '/' && queryToken !== null) {
      const opened = findLogin(queryToken, logins)
      if (opened === null) {
        // An old printed link: its server has since restarted with new tokens.
        if (wantsHtml(req, url.pathname)) return sendPage(res, 401, signedOutPage(cookie !== null ? 'restarted' : 'old-link'))
        return send(res, 401, errorBody('unauthorized', 'wrong token'))
      }
      const allowed = exchangeAllowed(req)
      if (allowed === false) return sendPage(res, 403, crossSitePage())
      const current = fromCookie !== null && sessions.live(fromCookie) ? fromCookie : null
      if (current !== null && current.login !== opened) return sendPage(res, 200, switchPage(current.login, opened, queryToken))
      if (allowed === 'ask') return sendPage(res, 200, confirmPage(opened, queryToken))
      // The same login again (a lost secret, a new window): the session it already has.
      return current !== null ? signIn(res, current, 302, false) : signIn(res, sessions.open(opened))
    }
    // The switch and confirm forms: a POST from our own page only.
    if (req.method === 'POST' && url.pathname === '/session') {
      if (req.headers.origin === undefined || !originOk(req, port) || exchangeAllowed(req) === false) return send(res, 403, errorBody('unauthorized', 'forbidden origin'))
      const body = await readBody(req)
      const switched = body === 'too-large' ? null : findLogin(formToken(body.toString('utf8')), logins)
      if (switched === null) return send(res, 401, errorBody('unauthorized', 'wrong token'))
      // The session this browser leaves behind is of no further use: end it.
      if (fromCookie !== null) endSession(fromCookie.nonce)
      return signIn(res, sessions.open(switched), 303)
    }
    const isApi = url.pathname.startsWith('/api/') || url.pathname === SIGN_OUT_PATH
    const viaCookie = fromCookie !== null && sessions.live(fromCookie) ? fromCookie : null
    // A page may load on the cookie alone (a navigation sends no header); an API call needs the
    // session's secret too, which only this origin's own pages hold.
    const session = viaCookie !== null && (!isApi || secretMatches(viaCookie, req.headers[SESSION_SECRET_HEADER])) ? viaCookie : null
    const login = session?.login ?? findLogin(bearer(req), logins)
    if (login === null) {
      const ended = fromCookie !== null && viaCookie === null
      if (wantsHtml(req, url.pathname)) return sendPage(res, 401, signedOutPage(ended ? 'ended' : cookie !== null ? 'restarted' : 'signed-out'))
      // Marked apart from a handler's own `unauthorized` (e.g. adjudicators only), which is a 401 too:
      // only this one means "this browser's login is void" ('ended': signed out or idle too long).
      res.setHeader(LOGIN_REQUIRED_HEADER, ended ? 'ended' : 'required')
      const why =
        ended ? 'this browser session ended (signed out, or idle too long): open your login URL again'
        : viaCookie !== null ? `the session cookie alone does not call the API: the page sends its session secret (${SESSION_SECRET_HEADER}); open your login URL again`
        : 'open the URL printed by `arbiter serve` (it carries the token)'
      return send(res, 401, errorBody('unauthorized', why))
    }
    if (req.method !== 'GET' && req.method !== 'HEAD' && !originOk(req, port)) return send(res, 403, errorBody('unauthorized', 'forbidden origin'))
    if (session !== null && isApi) sessions.touch(session)

    if (url.pathname === SIGN_OUT_PATH) {
      if (req.method !== 'POST') return send(res, 405, errorBody('bad_input', 'use POST'))
      if (session === null) return send(res, 400, errorBody('bad_input', 'only a browser session signs out (a token stays valid until the server restarts)'))
      endSession(session.nonce)
      res.setHeader('Set-Cookie', clearedSessionCookie(port))
      return send(res, 200, { ok: true, value: null })
    }
    if (url.pathname === '/api/events' && req.method === 'GET') return openEventStream(res, session?.nonce ?? null)
    if (url.pathname.startsWith('/api/')) {
      if (req.method !== 'POST') return send(res, 405, errorBody('bad_input', 'use POST'))
      return callApi(req, res, url.pathname.slice('/api/'.length), login)
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, errorBody('bad_input', 'method not allowed'))
    const file = await readStatic(opts.rendererDir, url.pathname)
    if (!file) return send(res, 404, errorBody('not_found', 'not found'))
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-store'
    })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  /** To the console, the session in the cookie and its secret in the fragment (read once by the page). */
  function signIn(res: ServerResponse, session: Session, status = 302, setCookie = true): void {
    res.writeHead(status, {
      ...(setCookie ? { 'Set-Cookie': sessionCookie(port, sessionCookieValue(session)) } : {}),
      Location: `/#${SECRET_FRAGMENT}=${sessionSecret(session)}`,
      'Cache-Control': 'no-store'
    })
    res.end()
  }

  /** Ends a session and closes its event streams (its tabs then find themselves signed out). */
  function endSession(nonce: string): void {
    sessions.end(nonce)
    for (const [s, owner] of streams) if (owner === nonce) s.end()
  }

  async function callApi(req: IncomingMessage, res: ServerResponse, method: string, login: Login): Promise<void> {
    const tab = tabOf(req)
    if (tab === 'bad') return send(res, 400, errorBody('bad_input', 'the session header must be 8 to 64 characters of A-Z a-z 0-9 _ -'))
    // An upload's slice is its raw bytes, streamed to the upload under its own cap (web-upload.ts).
    if (method === 'imports.upload') {
      const reply = await receiveSlice(req, opts.handlers, callContext(opts.context(), login, tab))
      if (reply.close) res.setHeader('Connection', 'close')
      return send(res, reply.status, reply.body)
    }
    // A declared length over the cap is refused before a byte is read (and the connection closed,
    // so the server never reads the body it refused); without one, readBody stops at the cap.
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      res.setHeader('Connection', 'close')
      return send(res, 413, errorBody('bad_input', `request body over ${MAX_BODY_BYTES} bytes`))
    }
    const body = await readBody(req)
    if (body === 'too-large') return send(res, 413, errorBody('bad_input', `request body over ${MAX_BODY_BYTES} bytes`))
    // Counted before the parse, whose cost grows with the depth and holds up every other call.
    if (nestsDeeperThan(body, MAX_REQUEST_DEPTH)) return send(res, 400, errorBody('bad_input', `request body nests deeper than ${MAX_REQUEST_DEPTH} levels`))
    let args: unknown
    try {
      args = body.length === 0 ? {} : JSON.parse(body.toString('utf8'))
    } catch {
      return send(res, 400, errorBody('bad_input', 'request body is not JSON'))
    }
    const envelope = await dispatch(opts.handlers, method, args, callContext(opts.context(), login, tab))
    send(res, envelope.ok ? 200 : HTTP_STATUS[envelope.error.code], envelope)
  }

  function openEventStream(res: ServerResponse, owner: string | null): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' })
    res.write(': connected\n\n')
    streams.set(res, owner)
    res.on('close', () => streams.delete(res))
  }

  const unsubscribe = opts.subscribe((event) => {
    const frame = `data: ${JSON.stringify(event)}\n\n`
    for (const s of streams.keys()) s.write(frame)
  })
  // Proxies drop idle streams; a comment line every 15 s keeps the channel open. The same sweep
  // closes the streams of sessions that went idle too long.
  const keepAlive = setInterval(() => {
    for (const nonce of sessions.sweep()) endSession(nonce)
    for (const s of streams.keys()) s.write(': ping\n\n')
  }, 15_000)
  keepAlive.unref()

  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
  let busyPort: number | null = null
  try {
    await listen(opts.port ?? 0)
  } catch (error) {
    if (opts.portFallback !== true || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    busyPort = opts.port ?? null
    await listen(0)
  }
  port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}/`
  const links = logins.map((l) => ({ reviewer: l.reviewer, token: l.token, url: `${url}?token=${encodeURIComponent(l.token)}` }))

  return {
    url,
    loginUrl: links[0].url,
    port,
    busyPort,
    token: links[0].token,
    logins: links,
    async close() {
      clearInterval(keepAlive)
      unsubscribe()
      for (const s of streams.keys()) s.end()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    }
  }
}

/**
 * The request target as a URL. An origin-form target is a path even when it starts with `//`
 * (resolved against a base, `//secret.txt` would become a host named secret.txt and path `/`).
 */
function requestUrl(target: string | undefined, port: number): URL | null {
  const origin = `http://127.0.0.1:${port}`
  const t = target ?? '/'
  try {
    return t.startsWith('/') ? new URL(origin + t) : new URL(t, origin)
  } catch {
    return null
  }
}

function errorBody(code: 'unauthorized' | 'not_found' | 'bad_input', message: string) {
  return { ok: false, error: { code, message, details: null } }
}

/**
 * A page of the sign-in exchange (web-sessions.ts): plain HTML under its own stricter policy. Its
 * referrer policy lets its form's POST carry our Origin (under `no-referrer` a browser sends
 * `Origin: null`, which the switch refuses); the referrer goes to this origin only.
 */
function sendPage(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': SESSION_PAGE_CSP, 'Referrer-Policy': 'same-origin' })
  res.end(html)
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(JSON.stringify(body))
}

/**
 * The body, or 'too-large' as soon as it passes the cap (a chunked body has no length to check
 * first): the caller answers 413 at once; the rest is read and dropped, never buffered (Node dumps
 * an unread request body once the response has ended, and its requestTimeout bounds a body that
 * never ends).
 */
function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk)
      req.off('data', onData)
      req.resume()
      resolve('too-large')
    }
    req.on('data', onData)
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}
