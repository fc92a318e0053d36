/**
 * This tab's session id: the web host makes it part of the session every call of this
 * tab runs in, so a reviewer's two tabs are two sessions and a reservation belongs to one of them.
 * Kept in sessionStorage: a reload stays the same session (and keeps its reservations), a new tab
 * gets a new one.
 */
const KEY = 'arbiter.tab-session'
const VALID = /^[A-Za-z0-9_-]{8,64}$/

let cached: string | null = null

export function tabSession(): string {
  if (cached !== null) return cached
  let id: string | null = null
  try {
    id = window.sessionStorage.getItem(KEY)
  } catch {
    // Storage disabled: one id for this page's lifetime still makes a session.
  }
  if (id === null || !VALID.test(id)) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
    try {
      window.sessionStorage.setItem(KEY, id)
    } catch {
      // as above
    }
  }
  cached = id
  return id
}
