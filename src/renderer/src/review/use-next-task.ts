import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useApi } from '../api/context'
import { useQueuePage } from '../api/loop-queries'
import { useQueueState } from '../queue/queue-state'
import { useReviewSession } from './session'

/**
 * The task after this one in the queue's own order (filter and sort), skipping what this session
 * skipped or labeled; its detail is fetched ahead so resolve → next shows it at once.
 */
export function useNextTask(currentId: string | null): string | null {
  const api = useApi()
  const qc = useQueryClient()
  const { query } = useQueueState()
  const { skipped, history } = useReviewSession()
  const page = useQueuePage(query, 0)
  // The cached page may predate this session's last labels (refetches are coalesced): a task
  // labeled here is never offered again, whatever the cache says.
  const labeled = new Set(history.map((h) => h.taskId))
  const next =
    page.data?.rows.find((r) => r.taskId !== currentId && !skipped.has(r.taskId) && !labeled.has(r.taskId) && r.label === null)?.taskId ?? null

  useEffect(() => {
    if (next) void qc.prefetchQuery({ queryKey: ['task.detail', next, false], queryFn: () => api['task.detail']({ taskId: next, blind: false }) })
  }, [next, qc, api])
  return next
}
