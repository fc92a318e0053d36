import { useCallback, useEffect, useRef, useState } from 'react'
import type { FitDetail, RefitChange } from '@shared/api'
import type { ApiEvent } from '@shared/events'
import { refitMoves } from '@shared/refit-change'
import { useApi, useApiEvents } from '../api/context'
import { RefitSummary } from './RefitSummary'
import { useToast } from './Toasts'

/**
 * After a background refit lands, says what changed without interrupting the reviewer (never a
 * dialog or a focus change). A refit that moved the acted share by ≥ 5 points or the queue by
 * ≥ 5 % is said plainly — from what to what, and the labels given since the fit
 * before it — and stays until dismissed; any other one is a toast of each seat's weight.
 */
export function RefitNotice() {
  const api = useApi()
  const toast = useToast()
  const last = useRef<FitDetail | null>(null)
  const [news, setNews] = useState<RefitChange | null>(null)

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
        void Promise.all([api['fits.get']({ fitId: e.fitId }), api['fits.change']({ fitId: e.fitId })]).then(([fit, change]) => {
          const before = last.current
          last.current = fit
          if (refitMoves(change).notable) setNews(change)
          else toast({ kind: 'info', text: `Refit landed (${fit.method}): ${describe(before, fit)}` })
        }).catch(() => {})
      },
      [api, toast]
    )
  )
  if (news === null) return null
  return (
    <div className="refit-banner">
      <RefitSummary key={news.after.fitId} change={news} testId="refit-summary" title="The refit moved the queue" onDismiss={() => setNews(null)} />
    </div>
  )
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
