import { useState } from 'react'
import { useApi } from '../api/context'
import { useFits } from '../api/queries'

/** Acted / decided tasks, as a percentage; a dash before the fit's decisions are saved. */
function actedShare(metrics: Record<string, unknown> | null): string {
  const act = metrics?.act
  return typeof act === 'number' ? `${(100 * act).toFixed(1)}%` : '—'
}

/** Every fit, newest first (its bound and the acted share it led to); any earlier one can be made current again (its decisions come back). */
export function FitsPanel() {
  const api = useApi()
  const fits = useFits()
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
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
  return (
    <section className="panel wide" aria-labelledby="fits-heading">
      <h2 id="fits-heading">Fits over time</h2>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <table className="data">
        <thead>
          <tr>
            <th scope="col">created</th>
            <th scope="col">method</th>
            <th scope="col">hyperparameters</th>
            <th scope="col">bound</th>
            <th scope="col">decisions</th>
            <th scope="col">acted share</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {(fits.data ?? []).map((f) => (
            <tr key={f.id} className={f.current ? 'current' : undefined}>
              <td>{new Date(f.createdAt).toLocaleString()}</td>
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
                {f.current ? (
                  <span className="tag">current</span>
                ) : (
                  <button type="button" className="small secondary" disabled={busy !== null || f.decidedAt === null} onClick={() => void rollback(f.id)}>
                    Roll back to this
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
