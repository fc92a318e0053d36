import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useRef, useState } from 'react'
import type { HistoryLabel, LabelSource } from '@shared/api'
import { ApiError } from '@shared/errors'
import { useApi } from '../api/context'
import { useToast } from '../components/Toasts'
import { shortLabel } from '../components/LongText'
import { useReviewSession } from './session'
import { callKey } from '../api/call-keys'

const SCREEN: Record<LabelSource, string> = { escalation: 'Review', random: 'Calibrate' }

/**
 * Undo as the store keeps it: the reviewer's latest live label of this screen's
 * source — Review's escalation labels, Calibrate's random ones, never a ruling — so it survives a
 * reload, follows the reviewer to any window, and never takes back another screen's label. A label
 * whose task moved on since (another reviewer labeled it, a ruling) is refused by the store; the
 * conflict is shown as such and nothing changes. Resolves to the task of the label undone, or null.
 */
export function useUndo(source: LabelSource) {
  const api = useApi()
  const qc = useQueryClient()
  const toast = useToast()
  const session = useReviewSession()
  const inFlight = useRef(false)
  const [busy, setBusy] = useState(false)

  const undo = useCallback(async (): Promise<string | null> => {
    if (inFlight.current) return null
    inFlight.current = true
    setBusy(true)
    try {
      const res = await api['labels.undoLast']({ source })
      if (res.undone === null) {
        toast({ kind: 'info', text: `Nothing of yours to undo in ${SCREEN[source]}.` })
        return null
      }
      session.forget(res.undone.id)
      // The undo bumped the task's version: a cached copy of it (e.g. Calibrate's revealed view)
      // must not be shown, or the next label would go out against the old version and conflict.
      qc.removeQueries({ queryKey: callKey('task.detail', res.undone.taskId), type: 'inactive' })
      await Promise.all([
        qc.invalidateQueries({ queryKey: callKey('task.detail', res.undone.taskId) }),
        // The task is back in the queue: the counts and "left" say so with the undo, not after the
        // change event's coalescing window.
        qc.invalidateQueries({ queryKey: callKey('app.counts') }),
        qc.invalidateQueries({ queryKey: callKey('queue.page') })
      ])
      toast({ kind: 'info', text: `Undid “${shortLabel(res.undone.label ?? '')}” on ${res.undone.taskId}.` })
      return res.undone.taskId
    } catch (e) {
      const later = movedOn(e)
      if (later !== null) {
        toast({ kind: 'conflict', text: `Not undone: ${later}. Your label stands; open the task from your history to see it.` })
      } else {
        toast({ kind: 'error', text: `Not undone: ${e instanceof Error ? e.message : String(e)}` })
      }
      return null
    } finally {
      inFlight.current = false
      setBusy(false)
      void qc.invalidateQueries({ queryKey: callKey('labels.history') })
      void qc.invalidateQueries({ queryKey: callKey('labels.recent') })
    }
  }, [api, qc, toast, session, source])

  return { undo, busy }
}

/** "task t moved on since your label: bob labeled it “x” after you", from a moved-on conflict; else null. */
function movedOn(e: unknown): string | null {
  if (!(e instanceof ApiError) || e.code !== 'conflict') return null
  const d = e.details as { reason?: unknown; taskId?: unknown; movedOn?: HistoryLabel['movedOn'] } | null
  if (d === null || typeof d !== 'object' || d.reason !== 'moved_on' || d.movedOn == null) return null
  return `${String(d.taskId)} moved on since your label — ${laterText(d.movedOn)}`
}

/** What came after a label on its task, in words. */
export function laterText(later: NonNullable<HistoryLabel['movedOn']>): string {
  if (later.adjudicated) return `${later.reviewer} adjudicated it${later.label === null ? '' : ` (“${shortLabel(later.label)}”)`}`
  if (later.label === null) return `${later.reviewer} undid a label on it after you`
  return `${later.reviewer} labeled it “${shortLabel(later.label)}” after you`
}
