import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/** Cookies ignore ports, so two local servers would clobber one cookie: the name carries the port. */
export const cookieName = (port: number): string => `arbiter_${port}`

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`])
}

/** DNS rebinding: a hostile page that resolves its own name to 127.0.0.1 still sends its own Host. */
export function hostOk(req: IncomingMessage, port: number): boolean {
  return allowedHosts(port).has(String(req.headers.host ?? '').toLowerCase())
}

/** A cross-site form or fetch carries a foreign Origin; tools without one (curl, the CLI) pass. */
export function originOk(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return true
  return [...allowedHosts(port)].some((h) => origin === `http://${h}`)
}

export function tokensEqual(given: string | null | undefined, token: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // A malformed escape is a wrong token (401), not a server error.
      try {
        return decodeURIComponent(part.slice(eq + 1).trim())
      } catch {
        return null
      }
    }
  }
  return null
}

export function bearer(req: IncomingMessage): string | null {
  const h = req.headers.authorization
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)$/i.exec(h) : null
  return m ? m[1] : null
}

/**
 * How many cookies named `name` the request carries. A page on another port can set a second one
 * (cookies ignore ports) at a longer path, which the browser sends first: two mean one was tossed.
 */
export function cookieCount(req: IncomingMessage, name: string): number {
  const header = req.headers.cookie
  if (!header) return 0
  return header.split(';').filter((part) => {
    const eq = part.indexOf('=')
    return eq > 0 && part.slice(0, eq).trim() === name
  }).length
}

/** The cookie that carries a browser's session (web-sessions.ts), never the login token. */
export function sessionCookie(port: number, session: string): string {
  return `${cookieName(port)}=${encodeURIComponent(session)}; HttpOnly; SameSite=Strict; Path=/`
}

/** Removes the session cookie (sign-out). */
export function clearedSessionCookie(port: number): string {
  return `${cookieName(port)}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`
}
