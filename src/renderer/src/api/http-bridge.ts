import type { ApiArgs, BridgeApi } from '@shared/api'
import { API_METHODS, type ApiMethod } from '@shared/api-methods'
import type { Envelope } from '@shared/errors'
import type { ApiEvent } from '@shared/events'
import { connectionState, OFFLINE_DETAILS, setConnectionState, subscribeConnection } from './connection'
import { tabSession } from './tab-session'
import { hasSecret, secretHeader } from './web-session'
import { UPLOAD_HEADER, uploadHeaderValue } from '@shared/contract/upload'

/**
 * The browser console's stand-in for the preload bridge: the same calls, as POST /api/<method>
 * on the web host that served this page (its session cookie and the session secret this origin
 * keeps authenticate, web-session.ts; the session header names this tab), and the event channel
 * as server-sent events read from a fetch stream (EventSource cannot send the secret).
 */
export function createHttpBridge(base = ''): BridgeApi {
  const bridge: Record<string, unknown> = {}
  for (const method of API_METHODS) {
    bridge[method] = async (args: unknown): Promise<Envelope<unknown>> => {
      let res: Response
      try {
        res = await fetch(`${base}/api/${method}`, { method: 'POST', credentials: 'same-origin', ...requestOf(method, args) })
      } catch (error) {
        setConnectionState('offline')
        return { ok: false, error: { code: 'internal', message: `the console server did not answer (${String(error)})`, details: OFFLINE_DETAILS } }
      }
      // The host refused this browser's login (web.ts marks that 401 apart from a handler's own
      // `unauthorized`): the server restarted, and every start draws new tokens.
      const login = res.status === 401 ? res.headers.get('X-Arbiter-Login') : null
      // A secret gone from this origin's storage: a tab of this browser signed out (which also
      // removed the cookie, so the server cannot tell it from a restart).
      if (login === 'required' || login === 'ended') setConnectionState('signed-out', login === 'ended' || !hasSecret() ? 'ended' : 'restarted')
      else setConnectionState('online')
      try {
        return (await res.json()) as Envelope<unknown>
      } catch {
        return { ok: false, error: { code: 'internal', message: `unexpected ${res.status} response`, details: null } }
      }
    }
  }
  // One event stream per tab, shared by every listener: a browser keeps at most six connections
  // to a host, and a stream per listener would leave a reviewer's second tab none for its calls.
  const listeners = new Set<(e: ApiEvent) => void>()
  let source: AbortController | null = null
  const openSource = () => {
    if (source !== null) return
    const s = new AbortController()
    source = s
    void readStream(`${base}/api/events`, s.signal, (event) => {
      for (const l of [...listeners]) l(event)
    }).then((opened) => {
      if (s.signal.aborted) return
      source = null
      // A dropped stream is the first sign of a stopped server: probe it, so the banner (or the
      // restarted page) shows without waiting for the reviewer's next call; a server that still
      // answers gets the stream back after a pause (a refused stream is never retried in a loop).
      void probe().then(() => {
        if (connectionState() === 'online' && listeners.size > 0 && source === null) window.setTimeout(openSource, opened ? 1000 : 3000)
      })
    })
  }
  const probe = async (): Promise<void> => {
    // Back online (the subscription below reopens the stream), offline, or signed out: the call sets the state.
    await (bridge['app.info'] as (a: unknown) => Promise<Envelope<unknown>>)({})
  }
  subscribeConnection(() => {
    if (connectionState() === 'online' && listeners.size > 0) openSource()
  })
  bridge.onEvent = (listener: (e: ApiEvent) => void) => {
    listeners.add(listener)
    openSource()
    return () => {
      listeners.delete(listener)
      if (listeners.size === 0 && source !== null) {
        source.abort()
        source = null
      }
    }
  }
  return bridge as BridgeApi
}

/**
 * Reads the event stream until it ends or `signal` aborts, handing each `data:` frame to `onEvent`.
 * Resolves whether the stream was open (a 200) at all.
 */
async function readStream(url: string, signal: AbortSignal, onEvent: (e: ApiEvent) => void): Promise<boolean> {
  let res: Response
  try {
    res = await fetch(url, { credentials: 'same-origin', headers: { ...secretHeader(), Accept: 'text/event-stream' }, signal })
  } catch {
    return false
  }
  if (!res.ok || res.body === null) return false
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return true
      buffered += value
      let end: number
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const frame = buffered.slice(0, end)
        buffered = buffered.slice(end + 2)
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n')
        if (data !== '') onEvent(JSON.parse(data) as ApiEvent)
      }
    }
  } catch {
    return true
  }
}

/** A call's headers and body: its arguments as JSON, except an upload's slice. */
function requestOf(method: ApiMethod, args: unknown): RequestInit {
  const session = { 'X-Arbiter-Session': tabSession(), ...secretHeader() }
  if (method === 'imports.upload') {
    // The slice is the body itself, a Blob the browser reads from the file as it sends: the page
    // never holds its bytes. The other arguments ride in a header (src/main/host/web-upload.ts).
    const { chunk, ...slice } = args as ApiArgs<'imports.upload'>
    return {
      headers: { ...session, 'Content-Type': 'application/octet-stream', [UPLOAD_HEADER]: uploadHeaderValue(slice) },
      body: chunk instanceof Blob ? chunk : new Blob([chunk as Uint8Array<ArrayBuffer>])
    }
  }
  return {
    headers: { ...session, 'Content-Type': 'application/json' },
    body: JSON.stringify(args ?? {}),
    // A release sent as the tab closes must outlive the page (bodies this small may).
    keepalive: method === 'task.release'
  }
}
