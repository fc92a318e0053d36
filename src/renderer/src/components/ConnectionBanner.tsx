import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useApi } from '../api/context'
import { signedOutReason, useConnectionState } from '../api/connection'

const RETRY_SECONDS = 5

/**
 * While the console server does not answer: a banner that retries every few seconds (and on
 * demand), and says what to do when the server was restarted elsewhere (its new address). When it answers again, every query refetches, so screens that failed meanwhile recover
 * without a reload.
 */
export function ConnectionBanner() {
  const state = useConnectionState()
  const api = useApi()
  const qc = useQueryClient()
  const [left, setLeft] = useState(RETRY_SECONDS)
  const [trying, setTrying] = useState(false)
  const wasOffline = useRef(false)

  const retry = useCallback(async () => {
    setTrying(true)
    try {
      await api['app.info']({})
    } catch {
      // Still offline (or signed out): the connection state says which.
    } finally {
      setTrying(false)
      setLeft(RETRY_SECONDS)
    }
  }, [api])

  useEffect(() => {
    if (state === 'offline') {
      wasOffline.current = true
      return
    }
    if (state === 'online' && wasOffline.current) {
      wasOffline.current = false
      void qc.invalidateQueries()
    }
  }, [state, qc])

  useEffect(() => {
    if (state !== 'offline') return
    const timer = window.setInterval(() => {
      setLeft((n) => {
        if (n <= 1) {
          void retry()
          return RETRY_SECONDS
        }
        return n - 1
      })
    }, 1000)
    return () => window.clearInterval(timer)
  }, [state, retry])

  if (state !== 'offline') return null
  return (
    <div className="offline-banner" role="alert" data-testid="offline-banner">
      <strong>The console server at {window.location.origin} is not answering.</strong>{' '}
      <span>
        {trying ? 'Trying again…' : `Trying again in ${left} s.`} Labels already saved are safe; nothing is lost by waiting. If you restarted{' '}
        <code>arbiter serve</code>, open the new address it printed: a server started again may listen on another port.
      </span>
      <button type="button" onClick={() => void retry()} disabled={trying} data-testid="offline-retry">
        Retry now
      </button>
    </div>
  )
}

/**
 * After a restart the server draws new tokens, so this page's sign-in is void; a session also ends
 * when this browser signs out (in any tab) or stays unused for its idle lifetime. Say which and
 * point at the printed URL; never sign in by itself (that would need a token the page must not hold).
 */
export function ServerRestarted() {
  const ended = signedOutReason() === 'ended'
  return (
    <main className="server-restarted" role="alert" data-testid="server-restarted" data-reason={ended ? 'ended' : 'restarted'}>
      <h1>{ended ? 'This browser’s session ended' : 'The Arbiter server restarted'}</h1>
      <p>
        {ended
          ? 'This browser signed out (perhaps in another tab), or left the console unused long enough that its session ended.'
          : 'The console server was restarted since this page was opened, so this page is no longer signed in.'}
      </p>
      <p>
        Open the URL that <code>arbiter serve</code> printed when it started{ended ? '' : ' (it carries the new token)'}. Labels you saved are kept; a
        label that showed “not saved” must be given again.
      </p>
    </main>
  )
}
