import { useMemo, useSyncExternalStore } from 'react'

export const SCREENS = ['queue', 'review', 'calibrate', 'adjudicate', 'audit', 'import', 'settings'] as const
export type Screen = (typeof SCREENS)[number]

export interface Route {
  screen: Screen
  /** The rest of the hash path, e.g. a task id for `#/review/<id>`. */
  param: string | null
}

/** Hash routing: a route change never navigates the window (Electron denies navigation). */
export function parseHash(hash: string): Route {
  const [first, ...rest] = hash.replace(/^#\/?/, '').split('/')
  const screen = (SCREENS as readonly string[]).includes(first) ? (first as Screen) : 'queue'
  const param = rest.length > 0 && rest[0] !== '' ? decodeURIComponent(rest.join('/')) : null
  return { screen, param }
}

export function hrefFor(screen: Screen, param?: string): string {
  return `#/${screen}${param ? `/${encodeURIComponent(param)}` : ''}`
}

function subscribeToHash(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange)
  return () => window.removeEventListener('hashchange', onChange)
}

const currentHash = (): string => window.location.hash

/**
 * The route of the window's hash. A store subscription, not state set from an event: React reads
 * the hash again once it has subscribed, so a hash that changed between the first render and the
 * subscription (a link opened while the console was still starting) is not lost.
 */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribeToHash, currentHash)
  return useMemo(() => parseHash(hash), [hash])
}
