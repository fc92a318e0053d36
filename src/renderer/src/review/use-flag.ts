import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { useApi } from '../api/context'
import { useToast } from '../components/Toasts'
import { useReviewSession } from './session'
import { callKey } from '../api/call-keys'

/** Flags a task with a reason; true once the store has it. */
export function useFlag() {
  const api = useApi()
  const qc = useQueryClient()
  const toast = useToast()
  const session = useReviewSession()
  const [busy, setBusy] = useState(false)
  const flag = useCallback(
    async (taskId: string, reason: string): Promise<boolean> => {
      setBusy(true)
      try {
        const f = await api['flags.add']({ taskId, reason })
        session.flag(f.id, taskId)
        toast({ kind: 'info', text: `Flagged ${taskId}: it stays in the queue, marked, for someone else to decide.` })
        void qc.invalidateQueries({ queryKey: callKey('queue.page') })
        return true
      } catch (e) {
        toast({ kind: 'error', text: `Not flagged: ${e instanceof Error ? e.message : String(e)}` })
        return false
      } finally {
        setBusy(false)
      }
    },
    [api, qc, toast, session]
  )
  return { flag, busy }
}
