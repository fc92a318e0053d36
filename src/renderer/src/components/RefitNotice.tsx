import { useCallback, useEffect, useRef, useState } from 'react'
import type { FitDetail, RefitChange } from '@shared/api'
import type { ApiEvent } from '@shared/events'
import { refitMoves } from '@shared/refit-change'
import { useApi, useApiEvents } from '../api/context'
import { RefitSummary } from './RefitSummary'
import { useToast } from './Toasts'
import type { Screen } from '../router'

/** Where the "refit moved the queue" banner shows: the screens whose queue it moved. */
const BANNER_SCREENS: readonly Screen[] = ['queue', 'review']

/**
 * After a background refit lands, says what changed without interrupting the reviewer (never a
 * dialog or a focus change). A refit that moved the acted share by ≥ 5 points or the queue by
 * ≥ 5 % is said plainly — from what to what, and the labels given since the fit
 * before it — and stays until dismissed, shown on the screens whose work it moves (Queue and Review):
 * elsewhere it would sit over what the reviewer is reading (Audit's tables, Settings' own summary),
 * so it waits there. Any other refit is a toast of the seat weights that moved.
 */
export function RefitNotice({ screen }: { screen: Screen }) {
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
  if (news === null || !BANNER_SCREENS.includes(screen)) return null
  return (
    <div className="refit-banner">
      <RefitSummary key={news.after.fitId} change={news} testId="refit-summary" title="The refit moved the queue" onDismiss={() => setNews(null)} />
    </div>
  )
}

/**
 * The seat weights a refit moved, at the precision shown (two decimals): a weight that reads the
 * same before and after is left out, so the toast never says "1.74 → 1.74".
 */
export function describe(before: FitDetail | null, after: FitDetail): string {
  const was = new Map((before?.seats ?? []).map((s) => [s.seat, s.weight]))
  const weighted = after.seats.filter((s) => s.weight !== null)
  if (weighted.length === 0) return 'no seat weights (baseline method)'
  const parts = weighted.flatMap((s) => {
    const now = s.weight!.toFixed(2)
    const w0 = was.get(s.seat)
    if (w0 === undefined || w0 === null) return [`${s.seat} ${now}`]
    const then = w0.toFixed(2)
    return then === now ? [] : [`${s.seat} ${then} → ${now}`]
  })
  return parts.length > 0 ? `weights ${parts.join(', ')}` : 'no seat weight moved visibly (at two decimals)'
}
