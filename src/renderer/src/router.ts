import { useEffect, useState } from 'react'

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

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash))
  useEffect(() => {
    const on = () => setRoute(parseHash(window.location.hash))
    window.addEventListener('hashchange', on)
    return () => window.removeEventListener('hashchange', on)
  }, [])
  return route
}
