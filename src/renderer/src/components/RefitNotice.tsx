import { useCallback, useEffect, useRef } from 'react'
import type { FitDetail } from '@shared/api'
import type { ApiEvent } from '@shared/events'
import { useApi, useApiEvents } from '../api/context'
import { useToast } from './Toasts'

/**
 * After a background refit lands, says what changed — each seat's weight before → after —
 * without interrupting the reviewer (a toast, never a dialog or a focus change).
 */
export function RefitNotice() {
  const api = useApi()
  const toast = useToast()
  const last = useRef<FitDetail | null>(null)

  useEffect(() => {
    let live = true
    void api['fits.status']({}).then(async (s) => {
      if (live && s.currentFitId) last.current = await api['fits.get']({ fitId: s.currentFitId })
    }).catch(() => {})
    return () => {
      live = false
    }
  }, [api])

  useApiEvents(
    useCallback(
      (e: ApiEvent) => {
        if (e.type !== 'fit-landed') return
        void api['fits.get']({ fitId: e.fitId }).then((fit) => {
          const before = last.current
          last.current = fit
          toast({ kind: 'info', text: `Refit landed (${fit.method}): ${describe(before, fit)}` })
        }).catch(() => {})
      },
      [api, toast]
    )
  )
  return null
}

export function describe(before: FitDetail | null, after: FitDetail): string {
  const was = new Map((before?.seats ?? []).map((s) => [s.seat, s.weight]))
  const parts = after.seats
    .filter((s) => s.weight !== null)
    .map((s) => {
      const w0 = was.get(s.seat)
      return w0 === undefined || w0 === null ? `${s.seat} ${s.weight!.toFixed(2)}` : `${s.seat} ${w0.toFixed(2)} → ${s.weight!.toFixed(2)}`
    })
  return parts.length > 0 ? `weights ${parts.join(', ')}` : 'no seat weights (baseline method)'
}
