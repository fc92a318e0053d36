import { SECRET_FRAGMENT, SESSION_SECRET_HEADER, SIGN_OUT_PATH } from '@shared/web-session'

/**
 * The browser console's session secret (src/main/host/web-sessions.ts): the sign-in redirect
 * hands it over in the fragment; the page keeps it in localStorage, which is per origin — per
 * port, so no other local service reads it — and shared by this origin's tabs, so a new tab or a
 * review link opened in this browser is signed in as well. It is read on every call, so a tab
 * follows a sign-in made in another tab.
 */
const KEY = 'arbiter.session-secret'
const FRAGMENT = new RegExp(`^#${SECRET_FRAGMENT}=([A-Za-z0-9_-]+)$`)

let memory: string | null = null

/** Takes the secret out of the address bar (before the router reads the hash) into storage. */
export function adoptSecretFromUrl(): void {
  const m = FRAGMENT.exec(window.location.hash)
  if (m === null) return
  memory = m[1]
  try {
    window.localStorage.setItem(KEY, m[1])
  } catch {
    // Storage disabled: this page alone stays signed in.
  }
  window.history.replaceState(null, '', window.location.pathname + window.location.search)
}

function secret(): string | null {
  try {
    return window.localStorage.getItem(KEY) ?? memory
  } catch {
    return memory
  }
}

export function hasSecret(): boolean {
  return secret() !== null
}

/** The header every API call and the event stream carry. */
export function secretHeader(): Record<string, string> {
  const s = secret()
  return s === null ? {} : { [SESSION_SECRET_HEADER]: s }
}

/** Ends this browser's session on the server (every tab of it), forgets the secret, and shows the signed-out page. */
export async function signOut(base = ''): Promise<void> {
  // Forgotten before the server ends the session: the other tabs learn of the end when their event
  // streams close, and must by then find no secret, or they would read the 401 as a restart.
  const headers = secretHeader()
  memory = null
  try {
    window.localStorage.removeItem(KEY)
  } catch {
    // as above
  }
  try {
    await fetch(`${base}${SIGN_OUT_PATH}`, { method: 'POST', credentials: 'same-origin', headers })
  } finally {
    window.location.assign(`${base}/`)
  }
}
