import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useRef, useState } from 'react'
import type { LabelSource, TaskDetail } from '@shared/api'
import { ApiError } from '@shared/errors'
import { useApi } from '../api/context'
import { isOfflineError } from '../api/connection'
import { useToast } from '../components/Toasts'
import { useReviewSession, type GivenLabel } from './session'
import { callKey } from '../api/call-keys'
import { useSettings } from '../api/queries'

/**
 * Resolve for one task (undo is the store's: use-undo.ts). A label is acknowledged only once the main side returns (it is
 * durable by then); a conflict — someone resolved the task since it was opened, or another window
 * holds it — is shown, the task reloaded, and nothing is overwritten.
 */
export function useResolve(source: LabelSource) {
  const api = useApi()
  const qc = useQueryClient()
  const toast = useToast()
  const session = useReviewSession()
  const me = useSettings().data?.reviewer ?? null
  // A ref guards against double submits without re-rendering the page before the request goes
  // out; the state only greys the buttons if the call is slow.
  const inFlight = useRef(false)
  // Tasks this hook has labeled: a second key on one (the screen has not moved on yet) is a
  // duplicate, ignored — sent, it would meet the task's new version and read as "not saved".
  const saved = useRef(new Set<string>())
  const [busy, setBusyState] = useState(false)
  const setBusy = (b: boolean) => {
    inFlight.current = b
    if (!b) setBusyState(false)
    else window.setTimeout(() => inFlight.current && setBusyState(true), 150)
  }

  /**
   * The label given (with the source the store kept), or null when nothing was written. With
   * `onTaken`, a task someone labeled since it was read is not reloaded for a second look: the
   * reviewer is told who took it and `onTaken` moves on.
   */
  const resolve = useCallback(
    async (detail: TaskDetail, label: string, note: string | null, onTaken?: () => void): Promise<GivenLabel | null> => {
      if (inFlight.current || saved.current.has(detail.task.id)) return null
      setBusy(true)
      try {
        const res = await api['labels.resolve']({ taskId: detail.task.id, label, expectedVersion: detail.task.version, source, note })
        saved.current.add(detail.task.id)
        const given: GivenLabel = { labelId: res.labelId, taskId: res.taskId, version: res.version, label, source: res.source }
        session.push(given)
        // The history and recent labels refresh from the label's change event, coalesced after a
        // burst (api/context.tsx): fetched at once, they queued in front of the next task's calls.
        return given
      } catch (e) {
        void qc.invalidateQueries({ queryKey: callKey('task.detail', detail.task.id) })
        const by = onTaken === undefined ? null : labeledSince(e)
        if (by === null) report(e, toast, detail.task.id, label)
        else {
          const who = by === me ? 'You labeled this task in another tab' : `${by} labeled this task`
          toast({ kind: 'conflict', text: `${who} a moment ago — moved on. Nothing was overwritten.` })
          onTaken?.()
        }
        return null
      } finally {
        setBusy(false)
      }
    },
    [api, qc, toast, session, source, me]
  )

  /** An undone label's task may be labeled again from this screen. */
  const reopen = useCallback((taskId: string) => saved.current.delete(taskId), [])

  return { resolve, reopen, busy }
}

function report(e: unknown, toast: ReturnType<typeof useToast>, taskId: string, label: string): void {
  const holder = e instanceof ApiError ? heldBy(e.details) : null
  if (isOfflineError(e)) {
    // The reviewer may have moved on by the time this shows: name the task and the label lost.
    toast({ kind: 'error', text: `Not saved: your label “${label}” for task ${taskId} did not reach the console server (it is not answering). Give it again once the server answers.` })
  } else if (holder !== null) {
    // Another window holds the task: nothing was written; say who, and until when.
    toast({ kind: 'conflict', text: `Not saved: ${holder} is reviewing this task right now. Nothing was overwritten; pick another task or wait until it is free.` })
  } else if (e instanceof ApiError && e.code === 'conflict') {
    toast({ kind: 'conflict', text: `Not saved: ${e.message}. The task was reloaded — check it and resolve again.` })
  } else {
    toast({ kind: 'error', text: `Not saved: ${e instanceof Error ? e.message : String(e)}` })
  }
}

/** The holder named by a `reserved` conflict's details, else null. */
function heldBy(details: unknown): string | null {
  const d = details as { reason?: unknown; heldBy?: { reviewer?: unknown } } | null
  return d !== null && typeof d === 'object' && d.reason === 'reserved' && typeof d.heldBy?.reviewer === 'string' ? d.heldBy.reviewer : null
}

/** Who labeled the task since it was read (a version conflict with a live label), else null. */
function labeledSince(e: unknown): string | null {
  if (!(e instanceof ApiError) || e.code !== 'conflict') return null
  const d = e.details as { currentVersion?: unknown; latestLiveLabel?: { reviewer?: unknown } | null } | null
  return d !== null && typeof d === 'object' && typeof d.currentVersion === 'number' && typeof d.latestLiveLabel?.reviewer === 'string' ? d.latestLiveLabel.reviewer : null
}
