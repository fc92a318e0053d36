import type { BridgeApi } from '@shared/api'
import { API_METHODS } from '@shared/api-methods'
import type { Envelope } from '@shared/errors'
import type { ApiEvent } from '@shared/events'

/**
 * The browser console's stand-in for the preload bridge: the same calls, as POST /api/<method>
 * on the web host that served this page (its session cookie authenticates), and the event
 * channel as server-sent events.
 */
export function createHttpBridge(base = ''): BridgeApi {
  const bridge: Record<string, unknown> = {}
  for (const method of API_METHODS) {
    bridge[method] = async (args: unknown): Promise<Envelope<unknown>> => {
      let res: Response
      try {
        res = await fetch(`${base}/api/${method}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(args ?? {})
        })
      } catch (error) {
        return { ok: false, error: { code: 'internal', message: `the console server did not answer (${String(error)})`, details: null } }
      }
      try {
        return (await res.json()) as Envelope<unknown>
      } catch {
        return { ok: false, error: { code: 'internal', message: `unexpected ${res.status} response`, details: null } }
      }
    }
  }
  bridge.onEvent = (listener: (e: ApiEvent) => void) => {
    const source = new EventSource(`${base}/api/events`)
    source.onmessage = (m) => listener(JSON.parse(m.data as string) as ApiEvent)
    return () => source.close()
  }
  return bridge as BridgeApi
}
