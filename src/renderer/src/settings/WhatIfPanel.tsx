import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useState, type ReactNode } from 'react'
import type { BudgetWhatIf, DecidedShare, EngineSettings } from '@shared/api'
import { useApi } from '../api/context'
import { callKey } from '../api/call-keys'

/** Typing pauses this long before the what-if is asked again (each ask is one read of the fit's bounds). */
const SETTLE_MS = 250

function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const t = window.setTimeout(() => setSettled(value), ms)
    return () => window.clearTimeout(t)
  }, [value, ms])
  return settled
}

/**
 * Before saving: what the draft settings would do under the current fit, read
 * by the main side from that fit's stored bounds — the acted share, the queue and the expected
 * wrong actions for an absolute β — or, for a change the bounds depend on, that it needs a refit.
 * `draft` null: a field is not valid yet.
 */
export function WhatIfPanel({ draft }: { draft: EngineSettings | null }) {
  const api = useApi()
  const key = useSettled(draft === null ? null : JSON.stringify(draft), SETTLE_MS)
  const q = useQuery({
    queryKey: callKey('fits.whatIf', key),
    queryFn: () => api['fits.whatIf']({ settings: JSON.parse(key!) as EngineSettings }),
    enabled: key !== null,
    placeholderData: keepPreviousData
  })
  const settling = key !== (draft === null ? null : JSON.stringify(draft)) || q.isFetching
  if (draft === null) return <Frame state="invalid">Correct the fields marked above to see what saving would do.</Frame>
  if (q.isError) return <Frame state="error">The what-if could not be read: {q.error.message}</Frame>
  if (q.data === undefined) return <Frame state="loading">Reading the current fit’s bounds…</Frame>
  return <WhatIfBody w={q.data} settling={settling} />
}

function WhatIfBody({ w, settling }: { w: BudgetWhatIf; settling: boolean }) {
  if (w.unavailable !== null) return <Frame state="unavailable">{w.unavailable}</Frame>
  if (w.needsRefit.length > 0) {
    return (
      <Frame state="needs-refit" settling={settling}>
        <p data-testid="what-if-needs-refit">
          Changing {list(w.needsRefit)} <strong>needs a refit</strong>: the certificate’s bounds depend on {w.needsRefit.length === 1 ? 'it' : 'them'}, so the current
        fit cannot say what {w.needsRefit.length === 1 ? 'it does' : 'they do'}. Save and refit to see; the summary follows.
        </p>
      </Frame>
    )
  }
  const now = w.current!
  const next = w.proposed
  if (next === null) {
    return (
      <Frame state="unchanged" settling={settling}>
        <p>
          Nothing that decides what the engine acts on changed: {share(now)} of the {now.undecided} tasks without a human label act under the current fit, and {now.queue} wait in
          the queue.
        </p>
      </Frame>
    )
  }
  return (
    <Frame state="ready" settling={settling} proposed={next}>
      <p>
        From the current fit’s stored bounds, with β = {next.beta.toFixed(2)} an acted answer needs a bound ≥ 1 − α = {next.alpha > 0 ? next.threshold.toFixed(3) : 'unreachable (α ≤ 0: everything is deferred)'}.
        {' '}Of the {now.undecided} tasks without a human label:
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">now</th>
            <th scope="col">if saved</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">acted</th>
            <td>{share(now)}</td>
            <td data-testid="what-if-acted">{share(next)}</td>
          </tr>
          <tr>
            <th scope="row">queue (deferred)</th>
            <td>{now.queue}</td>
            <td data-testid="what-if-queue">{next.queue}</td>
          </tr>
          <tr>
            <th scope="row">expected wrong actions</th>
            <td data-testid="what-if-wrong-now">{now.expectedWrong === undefined ? '—' : expected(now.expectedWrong, now.boundedTerms ?? 0)}</td>
            <td data-testid="what-if-wrong">{expected(next.expectedWrong, next.boundedTerms)}</td>
          </tr>
        </tbody>
      </table>
      <p className="muted small">
        Expected wrong actions: Σ over the acted tasks of 1 − q̂ at their stop round (now: at the current fit’s own threshold).
        {next.boundedTerms + (now.boundedTerms ?? 0) > 0 &&
          ` For some of them (${next.boundedTerms} if saved, ${now.boundedTerms ?? 0} now) the fit kept q̂ only at another round, so 1 − L (never smaller) stands in: the figure is an upper bound.`}{' '}
        A refit also learns from the labels given since the fit, so its figures can differ.
      </p>
    </Frame>
  )
}

function Frame({ state, settling = false, proposed, children }: { state: string; settling?: boolean; proposed?: BudgetWhatIf['proposed']; children: ReactNode }) {
  return (
    <div
      className="what-if notice"
      role="status"
      data-testid="settings-what-if"
      data-state={state}
      aria-busy={settling}
      data-acted={proposed?.acted ?? ''}
      data-queue={proposed?.queue ?? ''}
      data-expected-wrong={proposed?.expectedWrong ?? ''}
    >
      <strong>What saving would do</strong>
      {typeof children === 'string' ? <p>{children}</p> : children}
    </div>
  )
}

function share(s: DecidedShare): string {
  return `${s.acted} (${s.undecided === 0 ? '0.0' : ((100 * s.acted) / s.undecided).toFixed(1)} %)`
}

/** "≈ 3.2", or "≤ 3.2" when some terms are 1 − L standing in for an unstored q̂ (an upper bound). */
function expected(sum: number, boundedTerms: number): string {
  return `${boundedTerms > 0 ? '≤' : '≈'} ${sum.toFixed(1)}`
}

function list(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}
