import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { CallContext, ServerHandlers } from '../../shared/api'
import { HTTP_STATUS } from '../../shared/errors'
import type { ApiEvent } from '../../shared/events'
import { MAX_BODY_BYTES, MAX_REQUEST_DEPTH } from '../../shared/server-limits'
import { dispatch } from './dispatch'
import { nestsDeeperThan } from './json-depth'
import { SECURITY_HEADERS } from './hardening'
import { signedOutPage, wantsHtml } from './signed-out-page'
import { receiveSlice } from './web-upload'
import { readStatic } from './static-files'
import { bearer, cookieName, hostOk, originOk, readCookie, sessionCookie } from './web-auth'
import { callContext, createLogins, findLogin, tabOf, type Login } from './web-identity'
import { crossSitePage, exchangeAllowed, formToken, newSession, SESSION_PAGE_CSP, sessionLogin, switchPage } from './web-sessions'

/** The body cap of a JSON call (server-limits.ts); an upload's slice has its own (web-upload.ts). */
export { MAX_BODY_BYTES }
/** Set on the 401 that refuses a request without a valid login (the renderer's http-bridge reads it). */
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
}

export interface LoginLink {
  /** null: the login whose reviewer is the reviewer-name setting. */
  reviewer: string | null
  token: string
  /** The URL to open: it carries the token once, then the cookie takes over. */
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
 * only. Checks run in a fixed order on every request: Host (403) → token (401) → Origin on
 * non-GET (403) → path (404); an API call's tab session header, when sent, must be well formed
 * (400). The token names the login, and the login the caller (web-identity.ts); a browser holds a
 * session cookie signed with it, never the token (web-sessions.ts).
 */
export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const logins = createLogins(opts.reviewers, opts.token)
  const streams = new Set<ServerResponse>()
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

    const queryToken = url.searchParams.get('token')
    if (req.method === 'GET' && url.pathname === '/' && queryToken !== null) {
      const opened = findLogin(queryToken, logins)
      if (opened === null) {
        // An old printed link: its server has since restarted with new tokens.
        if (wantsHtml(req, url.pathname)) return sendPage(res, 401, signedOutPage(readCookie(req, cookieName(port)) !== null ? 'restarted' : 'old-link'))
        return send(res, 401, errorBody('unauthorized', 'wrong token'))
      }
      if (!exchangeAllowed(req)) return sendPage(res, 403, crossSitePage())
      const current = sessionLogin(readCookie(req, cookieName(port)), logins)
      if (current !== null && current !== opened) return sendPage(res, 200, switchPage(current, opened, queryToken))
      return signIn(res, current === null ? opened : null)
    }
    // The switch form of `switchPage`: a POST from our own page only.
    if (req.method === 'POST' && url.pathname === '/session') {
      if (req.headers.origin === undefined || !originOk(req, port) || !exchangeAllowed(req)) return send(res, 403, errorBody('unauthorized', 'forbidden origin'))
      const body = await readBody(req)
      const switched = body === 'too-large' ? null : findLogin(formToken(body.toString('utf8')), logins)
      if (switched === null) return send(res, 401, errorBody('unauthorized', 'wrong token'))
      return signIn(res, switched, 303)
    }
    const cookie = readCookie(req, cookieName(port))
    const login = sessionLogin(cookie, logins) ?? findLogin(bearer(req), logins)
    if (login === null) {
      if (wantsHtml(req, url.pathname)) return sendPage(res, 401, signedOutPage(cookie !== null ? 'restarted' : 'signed-out'))
      // Marked apart from a handler's own `unauthorized` (e.g. adjudicators only), which is a 401 too:
      // only this one means "this browser's login is void" (the console then says the server restarted).
      res.setHeader(LOGIN_REQUIRED_HEADER, 'required')
      return send(res, 401, errorBody('unauthorized', 'open the URL printed by `arbiter serve` (it carries the token)'))
    }
    if (req.method !== 'GET' && req.method !== 'HEAD' && !originOk(req, port)) return send(res, 403, errorBody('unauthorized', 'forbidden origin'))

    if (url.pathname === '/api/events' && req.method === 'GET') return openEventStream(res)
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

  /** To the console, with a new session of `login` in the cookie (null: the browser keeps its own). */
  function signIn(res: ServerResponse, login: Login | null, status = 302): void {
    const cookie: Record<string, string> = login === null ? {} : { 'Set-Cookie': sessionCookie(port, newSession(login)) }
    res.writeHead(status, { ...cookie, Location: '/', 'Cache-Control': 'no-store' })
    res.end()
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

  function openEventStream(res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' })
    res.write(': connected\n\n')
    streams.add(res)
    res.on('close', () => streams.delete(res))
  }

  const unsubscribe = opts.subscribe((event) => {
    const frame = `data: ${JSON.stringify(event)}\n\n`
    for (const s of streams) s.write(frame)
  })
  // Proxies drop idle streams; a comment line every 15 s keeps the channel open.
  const keepAlive = setInterval(() => {
    for (const s of streams) s.write(': ping\n\n')
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
      for (const s of streams) s.end()
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
