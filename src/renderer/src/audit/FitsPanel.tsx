import { useState } from 'react'
import { useApi } from '../api/context'
import { useEngineRights } from '../api/engine-rights'
import { useFits } from '../api/queries'
import { percent } from '@shared/refit-change'
import { shortDateTime } from '../components/time-text'
import { groupFits } from './fit-groups'

/** Acted / decided tasks, as a percentage; a dash before the fit's decisions are saved. */
function actedShare(metrics: Record<string, unknown> | null): string {
  const act = metrics?.act
  return typeof act === 'number' ? percent(act) : '—'
}

/** Groups listed before "Show all". */
const SHOWN = 8

/**
 * The fits, newest first, consecutive ones that decided alike in one row (fit-groups.ts), with
 * their bound and the acted share they led to. Roll back is offered only to a fit that decided
 * otherwise than the current one: to any other, it would change nothing; and only to a console
 * with the engine's rights (api/engine-rights.ts), the others see why not.
 */
export function FitsPanel() {
  const api = useApi()
  const fits = useFits()
  const rights = useEngineRights()
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [all, setAll] = useState(false)
  const rollback = async (fitId: string) => {
    setBusy(fitId)
    setError(null)
    try {
      await api['fits.rollback']({ fitId })
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(null)
    }
  }
  const groups = groupFits(fits.data ?? [])
  const shown = all ? groups : groups.slice(0, SHOWN)
  return (
    <section className="panel wide" aria-labelledby="fits-heading" data-testid="fits-panel">
      <h2 id="fits-heading">Fits over time</h2>
      <p className="muted small">Consecutive fits that decided alike (same method, settings, decisions and acted tasks) share a row.</p>
      {rights.why !== null && (
        <p className="muted small" data-testid="fits-rollback-locked">
          {rights.why}
        </p>
      )}
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <table className="data">
        <thead>
          <tr>
            <th scope="col">created</th>
            <th scope="col">fits</th>
            <th scope="col">method</th>
            <th scope="col">hyperparameters</th>
            <th scope="col">bound</th>
            <th scope="col">decisions</th>
            <th scope="col">acted share</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {shown.map((g) => {
            const f = g.newest
            const oldest = g.fits[g.fits.length - 1]
            return (
              <tr key={f.id} className={g.current ? 'current' : undefined} data-testid="fit-row" data-fits={g.fits.length} data-same-as-current={String(g.sameAsCurrent)}>
                <td>
                  {shortDateTime(f.createdAt)}
                  {g.fits.length > 1 && <span className="muted small"> (since {shortDateTime(oldest.createdAt)})</span>}
                </td>
                <td>{g.fits.length}</td>
                <td>{f.method}</td>
                <td className="mono">
                  {Object.entries(f.hyperparameters)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(' ') || '—'}
                </td>
                <td>{f.bound}</td>
                <td>{f.decisionCount}</td>
                <td data-testid="fit-acted-share">{actedShare(f.metrics)}</td>
                <td>
                  {g.current ? (
                    <span className="tag">current</span>
                  ) : f.decidedAt === null ? (
                    <span className="muted small">not decided</span>
                  ) : g.sameAsCurrent ? (
                    <span className="muted small" title="It decided as the current fit does: rolling back would change nothing">
                      as current
                    </span>
                  ) : rights.allowed !== true ? (
                    <span className="muted small" data-testid="fit-rollback-not-allowed" title={rights.why ?? undefined}>
                      decided otherwise
                    </span>
                  ) : (
                    <button type="button" className="small secondary" data-testid="fit-rollback" disabled={busy !== null} onClick={() => void rollback(f.id)}>
                      Roll back to this
                    </button>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {groups.length > SHOWN && (
        <button type="button" className="small secondary" data-testid="fits-show-all" onClick={() => setAll((x) => !x)}>
          {all ? `Show the newest ${SHOWN}` : `Show all ${groups.length} rows`}
        </button>
      )}
    </section>
  )
}
