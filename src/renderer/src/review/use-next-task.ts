import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef } from 'react'
import { useApi } from '../api/context'
import { useQueuePage } from '../api/queries'
import { useQueueState } from '../queue/queue-state'
import { noteClaim } from './claims'
import { useReviewSession } from './session'
import { callKey } from '../api/call-keys'

/** How many tasks "next" tries to reserve before it gives up and shows the queue. */
const CLAIM_TRIES = 8

/** A task "next" may offer, and its version as the queue page read it. */
interface Candidate {
  taskId: string
  version: number
}

/**
 * Tasks the server passed over for "next" in this window (changed since the page was read, or
 * flagged here): not tried again until a newer page no longer lists them as they were.
 */
const passedOver = new Map<string, number>()

/**
 * The tasks after this one in the queue's own order (filter and sort), skipping what this session
 * skipped or labeled and what another window holds (the queue leaves those out already; the cached
 * page may be older than their reservation).
 */
function useCandidates(currentId: string | null): Candidate[] {
  const { query } = useQueueState()
  const { skipped, history } = useReviewSession()
  const page = useQueuePage(query, 0)
  // The cached page may predate this session's last labels (refetches are coalesced): a task
  // labeled here is never offered again, whatever the cache says.
  const labeled = new Set(history.map((h) => h.taskId))
  return (page.data?.rows ?? [])
    .filter((r) => r.taskId !== currentId && !skipped.has(r.taskId) && !labeled.has(r.taskId) && r.label === null && r.reservedBy === null)
    .filter((r) => passedOver.get(r.taskId) !== r.version)
    .map((r) => ({ taskId: r.taskId, version: r.version }))
}

/** The task after this one; its detail is fetched ahead so resolve → next shows it at once. */
export function useNextTask(currentId: string | null): string | null {
  const api = useApi()
  const qc = useQueryClient()
  const next = useCandidates(currentId)[0]?.taskId ?? null

  useEffect(() => {
    if (next) void qc.prefetchQuery({ queryKey: callKey('task.detail', next, false), queryFn: () => api['task.detail']({ taskId: next, blind: false }) })
  }, [next, qc, api])
  return next
}

/**
 * "Next" that never lands on a task someone else holds, labeled since the page was read, or this
 * reviewer flagged: the next candidates are claimed in turn (the server checks each against its
 * version in the page, at the moment of the claim), before the screen moves, until one is this
 * window's; null when none of the first few could be (the reviewer goes back to the queue, which
 * has moved on by then).
 */
export function useClaimNext(currentId: string | null): () => Promise<string | null> {
  const api = useApi()
  const candidates = useCandidates(currentId)
  const ref = useRef(candidates)
  ref.current = candidates
  return useCallback(async () => {
    for (const { taskId, version } of ref.current.slice(0, CLAIM_TRIES)) {
      try {
        const r = await api['task.reserve']({ taskId, seenVersion: version })
        if (r.mine !== null) {
          noteClaim(taskId)
          return taskId
        }
        if (r.passedOver !== null) passedOver.set(taskId, version)
      } catch {
        // Gone or unreachable: try the next one.
      }
    }
    return null
  }, [api])
}
