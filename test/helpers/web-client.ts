import { Agent, request } from 'node:http'
import type { ApiErrorBody } from '../../src/shared/errors'
import { startWebHost, type WebHost } from '../../src/main/host/web'
import { SECRET_FRAGMENT, SESSION_SECRET_HEADER } from '../../src/shared/web-session'
import type { Service } from '../../src/main/service'

export interface CallOutcome<T = unknown> {
  status: number
  ok: boolean
  value: T | null
  error: ApiErrorBody | null
  ms: number
}

export interface BrowserSession {
  /** The session cookie, as a `Cookie` header value. */
  cookie: string
  /** The session secret the page keeps in its origin's storage and sends with every API call. */
  secret: string
}

/** The headers a signed-in page's API call carries: its cookie and its secret. */
export function sessionHeaders(s: BrowserSession): Record<string, string> {
  return { cookie: s.cookie, [SESSION_SECRET_HEADER]: s.secret }
}

/** The session cookie and secret a browser gets for a login URL (`/?token=…`) typed in its address bar. */
export function signIn(port: number, token: string): Promise<BrowserSession> {
  return new Promise((resolve, reject) => {
    const headers = { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'none' }
    const req = request({ host: '127.0.0.1', port, method: 'GET', path: `/?token=${encodeURIComponent(token)}`, headers }, (res) => {
      res.resume()
      const set = res.headers['set-cookie']?.[0]
      const secret = new RegExp(`#${SECRET_FRAGMENT}=([A-Za-z0-9_-]+)$`).exec(res.headers.location ?? '')?.[1]
      if (res.statusCode !== 302 || set === undefined || secret === undefined) reject(new Error(`sign-in answered ${res.statusCode} without a cookie and secret`))
      else resolve({ cookie: set.split(';')[0], secret })
    })
    req.on('error', reject)
    req.end()
  })
}

/**
 * A browser tab's view of the contract: `POST /api/<method>` with the session cookie and secret its
 * login URL gave, a JSON body and the page's own Origin — the requests the renderer's HTTP bridge makes — over
 * one keep-alive connection pool per client.
 */
export function webClient(host: Pick<WebHost, 'port' | 'token'>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 })
  let session: Promise<BrowserSession> | null = null
  async function call<T = unknown>(method: string, args: unknown = {}): Promise<CallOutcome<T>> {
    session ??= signIn(host.port, host.token)
    const headers = {
      host: `127.0.0.1:${host.port}`,
      origin: `http://127.0.0.1:${host.port}`,
      ...sessionHeaders(await session),
      'content-type': 'application/json'
    }
    const body = JSON.stringify(args)
    const started = performance.now()
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: host.port, method: 'POST', path: `/api/${method}`, agent, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(body)
    })
    const ms = performance.now() - started
    const envelope = JSON.parse(text) as { ok: true; value: T } | { ok: false; error: ApiErrorBody }
    return envelope.ok
      ? { status, ok: true, value: envelope.value, error: null, ms }
      : { status, ok: false, value: null, error: envelope.error, ms }
  }
  return { call, close: () => agent.destroy() }
}

/**
 * A web host over an existing service whose calls run as `reviewer` in their own session: how a
 * test gets several browser sessions at once (the web host takes its context from its process,
 * so one host is one session; `startConsoleServer` builds the same host over its own service).
 */
export function sessionHost(service: Service, rendererDir: string, reviewer: string, sessionId: string): Promise<WebHost> {
  return startWebHost({
    handlers: service.handlers,
    subscribe: service.subscribe,
    context: () => ({ ...service.context(), reviewer, sessionId }),
    rendererDir
  })
}
