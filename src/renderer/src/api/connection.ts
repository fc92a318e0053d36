import { useSyncExternalStore } from 'react'

/**
 * Whether the console server answers (browser console only; the desktop bridge never goes
 * offline): 'online'; 'offline' — a call or the event stream could not reach it (the banner
 * retries); 'signed-out' — it answered 401, so it restarted with new tokens (a page says so and
 * never signs in by itself: only the URL the server printed carries a token).
 */
export type ConnectionState = 'online' | 'offline' | 'signed-out'

let state: ConnectionState = 'online'
/** Why the page is signed out: the server restarted, or this browser's session ended (signed out, idle). */
export type SignedOutReason = 'restarted' | 'ended'
let reason: SignedOutReason = 'restarted'
const listeners = new Set<() => void>()

export function connectionState(): ConnectionState {
  return state
}

/** 'signed-out' is final for this page: only opening the printed URL leaves it. */
export function setConnectionState(next: ConnectionState, why: SignedOutReason = 'restarted'): void {
  if (state === next || state === 'signed-out') return
  state = next
  reason = why
  for (const l of [...listeners]) l()
}

export function subscribeConnection(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function signedOutReason(): SignedOutReason {
  return reason
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(subscribeConnection, connectionState)
}

/** The message an unreachable server's calls fail with (the error screens recognise it). */
export const OFFLINE_DETAILS = { offline: true } as const

export function isOfflineError(error: unknown): boolean {
  const details = (error as { details?: unknown } | null)?.details
  return typeof details === 'object' && details !== null && (details as { offline?: unknown }).offline === true
}
