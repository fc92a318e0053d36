import { useQuery } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import type { AuditSummary } from '@shared/api'
import type { ApiEvent } from '@shared/events'
import { useApi, useApiEvents } from '../api/context'
import { AgreementPanel } from '../audit/AgreementPanel'
import { ConfusionHeatmap } from '../audit/ConfusionHeatmap'
import { DriftChart } from '../audit/DriftChart'
import { FitsPanel } from '../audit/FitsPanel'
import { FrontierChart } from '../audit/FrontierChart'
import { ReliabilityDiagram } from '../audit/ReliabilityDiagram'
import { downloadText } from '../components/download'
import { ProgressBar, type Progress } from '../components/ProgressBar'
import { EmptyState, ErrorState } from '../components/States'
import { percent } from '@shared/refit-change'
import { hrefFor } from '../router'
import { callKey } from '../api/call-keys'

export function AuditScreen() {
  const api = useApi()
  const audit = useQuery({ queryKey: callKey('audit.summary'), queryFn: () => api['audit.summary']({}), staleTime: 60_000 })
  const [progress, setProgress] = useState<Progress | null>(null)
  useApiEvents(
    useCallback((e: ApiEvent) => {
      if (e.type === 'job' && e.kind === 'audit') setProgress({ done: e.done, total: e.total, message: e.message })
    }, [])
  )
  if (audit.isPending) {
    return (
      <div className="screen">
        <header className="screen-header">
          <h1>Audit</h1>
        </header>
        <ProgressBar progress={progress} label="computing the audit (nested cross-validation, act-or-defer splits)" />
      </div>
    )
  }
  if (audit.isError) return <ErrorState error={audit.error} />
  const a = audit.data
  return (
    <div className="screen audit">
      <header className="screen-header">
        <h1>Audit</h1>
        <p className="muted small">
          {a.labeledTasks} labeled tasks ({a.randomLabels} blind) · computed {new Date(a.computedAt).toLocaleTimeString()}
        </p>
        <ReportButton />
      </header>
      {a.labeledTasks === 0 ? (
        <EmptyState title="Nothing to audit yet">
          <p>
            The audit scores the engine against human labels. Label tasks blind in <a href={hrefFor('calibrate')}>Calibrate</a> first.
          </p>
          {a.agreement.overall !== null && <AgreementPanel agreement={a.agreement} />}
        </EmptyState>
      ) : (
        <div className="audit-grid">
          <Methods a={a} />
          <ActOrDefer a={a} />
          <Seats a={a} />
          <Reviewers a={a} />
          <AgreementPanel agreement={a.agreement} />
          <FitsPanel />
        </div>
      )}
    </div>
  )
}

/** The audit as one self-contained HTML file, the one `arbiter report` writes, as a download. */
function ReportButton() {
  const api = useApi()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = async () => {
    setBusy(true)
    setError(null)
    try {
      const r = await api['audit.report']({})
      downloadText(r.fileName, r.content, 'text/html')
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <span className="export">
      <button type="button" className="secondary" data-testid="download-report" disabled={busy} onClick={run} title="Every figure of this screen in one HTML file, to share or archive">
        Download report (HTML)
      </button>
      {error && (
        <span role="alert" className="error-text">
          {error}
        </span>
      )}
    </span>
  )
}

function Methods({ a }: { a: AuditSummary }) {
  const ran = a.methods.filter((m) => m.refused === null)
  return (
    <>
      <section className="panel wide" data-testid="audit-methods" aria-labelledby="methods-heading">
        <h2 id="methods-heading">Methods (nested cross-validation on the labeled tasks)</h2>
        <table className="data">
          <thead>
            <tr>
              <th scope="col">method</th>
              <th scope="col">n</th>
              <th scope="col">accuracy</th>
              <th scope="col">Brier</th>
              <th scope="col">ECE (10 bins)</th>
              <th scope="col">ECE (15 equal-mass)</th>
            </tr>
          </thead>
          <tbody>
            {a.methods.map((m) => (
              <tr
                key={`${m.method}${m.reference}`}
                className={[m.reference ? 'reference' : '', m.method === a.methodInUse ? 'in-use' : ''].join(' ').trim() || undefined}
                data-method={m.method}
                data-in-use={String(m.method === a.methodInUse)}
              >
                <th scope="row">
                  {m.method}
                  {m.reference && <span className="tag">reference</span>}
                  {m.method === a.methodInUse && (
                    <span className="tag tag-good" data-testid="method-in-use" title="The method the current fit decides with (Settings → method)">
                      in use
                    </span>
                  )}
                </th>
                {m.refused ? (
                  <td colSpan={5} className="muted">
                    {m.refused}
                  </td>
                ) : (
                  <>
                    <td>{m.n}</td>
                    <td>{m.accuracy.toFixed(3)}</td>
                    <td>{m.brier.toFixed(3)}</td>
                    <td>{m.eceEw.toFixed(3)}</td>
                    <td>{m.eceEm.toFixed(3)}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="panel wide" data-testid="audit-reliability" aria-labelledby="rel-heading">
        <h2 id="rel-heading">Reliability diagrams</h2>
        <div className="diagrams">
          {ran.map((m) => (
            <ReliabilityDiagram key={`${m.method}${m.reference}`} row={m} />
          ))}
        </div>
      </section>
    </>
  )
}

function ActOrDefer({ a }: { a: AuditSummary }) {
  const v = a.actOrDefer
  const c = v.current
  const live = v.live
  return (
    <section className="panel wide" data-testid="audit-frontier" aria-labelledby="aod-heading">
      <h2 id="aod-heading">Act or defer</h2>
      <div className="aod-compare">
        <div className="aod-figures" data-testid="audit-live-fit" data-acted={live?.act ?? ''} data-rnd={live?.rnd ?? ''}>
          <h3>Live fit: what the console acts on now</h3>
          {live === null ? (
            <p className="muted small">No fit has decided the tasks yet.</p>
          ) : (
            <>
              <p className="muted small">
                The current fit ({a.methodInUse}{live.beta === null ? ', no certificate' : `, β = ${live.beta.toFixed(2)}`}) over the {live.decided} tasks it decided (those without a
                human label when it ran). Their correctness is unknown, so only the acted share and the rounds.
              </p>
              <dl className="kpis">
                <div>
                  <dt>acted</dt>
                  <dd data-testid="live-acted">{percent(live.act)}</dd>
                </div>
                <div>
                  <dt>mean stop round</dt>
                  <dd data-testid="live-rnd">{live.rnd.toFixed(2)}</dd>
                </div>
              </dl>
            </>
          )}
        </div>
        <div className="aod-figures" data-testid="audit-split-eval" data-acted={c?.act ?? ''} data-rnd={c?.rnd ?? ''}>
          <h3>Held-out split evaluation: {v.reason === null ? 'fits of half the blind labels, scored on the other half' : 'not measured'}</h3>
          <p className="muted small">{v.protocol}</p>
          {v.reason && <p className="notice">{v.reason}</p>}
          {c && (
            <dl className="kpis">
              <div>
                <dt>acted (held-out half)</dt>
                <dd data-testid="split-acted">{percent(c.act)}</dd>
              </div>
              <div>
                <dt>accuracy when acting</dt>
                <dd>{c.accAct === null ? '—' : percent(c.accAct)}</dd>
              </div>
              <div>
                <dt>wrong actions</dt>
                <dd>{percent(c.wa)}</dd>
              </div>
              <div>
                <dt>of the budget β</dt>
                <dd>{percent(c.waOverBeta)}</dd>
              </div>
              <div>
                <dt>mean stop round</dt>
                <dd data-testid="split-rnd">{c.rnd.toFixed(2)}</dd>
              </div>
            </dl>
          )}
          {c && live !== null && (
            <p className="muted small" data-testid="aod-why-differ">
              The two differ because each split’s fit and certificate see half the {a.randomLabels} blind labels and are scored on blind-labeled tasks only; the live fit was
              certified on all of them and decides every task without a label.
            </p>
          )}
        </div>
      </div>
      {v.frontier.length > 0 && <FrontierChart points={v.frontier} currentBeta={c?.beta ?? null} />}
    </section>
  )
}

function Seats({ a }: { a: AuditSummary }) {
  return (
    <section className="panel wide" data-testid="audit-seats" aria-labelledby="seats-audit-heading">
      <h2 id="seats-audit-heading">Seats</h2>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">seat</th>
            <th scope="col">model</th>
            <th scope="col">reliability</th>
            <th scope="col">weight</th>
            <th scope="col">evidence</th>
            <th scope="col">drift (recent − rest)</th>
          </tr>
        </thead>
        <tbody>
          {a.seats.map((s) => (
            <tr key={s.seat} className={s.weight !== null && s.weight < 0 ? 'negative' : undefined}>
              <th scope="row">
                {s.seat}
                {s.adversarial && <span className="tag tag-bad">adversarial</span>}
              </th>
              <td>{s.model ?? '—'}</td>
              <td>{s.reliability === null ? '—' : s.reliability.toFixed(3)}</td>
              <td>{s.weight === null ? '—' : s.weight.toFixed(2)}</td>
              <td>{s.evidence}</td>
              <td>
                {s.drift === null ? (
                  '—'
                ) : s.drift.noTimeOrder ? (
                  <span className="muted" title="More than half of the labels share one time (docs/engine.md §9)">
                    no time order
                  </span>
                ) : (
                  <>
                    {s.drift.diff.toFixed(3)} <span className="muted">(noise {s.drift.floor.toFixed(3)})</span>
                    {s.drift.flagged && <span className="tag tag-bad">drifting</span>}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 className="small muted">Reliability over label time (the labels of the current fit)</h3>
      <div className="drift-charts">
        {a.seats.map((s) => (
          <DriftChart key={s.seat} seat={s} />
        ))}
      </div>
      {a.confusionCandidates.length > 0 && (
        <>
          <h3 className="small muted">Confusion matrices on tasks with candidates {a.confusionCandidates.join(', ')}</h3>
          <div className="heatmaps">
            {a.seats
              .filter((s) => s.confusion !== null)
              .map((s) => (
                <figure key={s.seat}>
                  <figcaption>{s.seat}</figcaption>
                  <ConfusionHeatmap matrix={s.confusion!} candidates={a.confusionCandidates} seat={s.seat} />
                </figure>
              ))}
          </div>
        </>
      )}
    </section>
  )
}

function Reviewers({ a }: { a: AuditSummary }) {
  return (
    <section className="panel" aria-labelledby="reviewers-heading">
      <h2 id="reviewers-heading">Labels by reviewer</h2>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">reviewer</th>
            <th scope="col">blind</th>
            <th scope="col">escalation</th>
            <th scope="col">undone</th>
            <th scope="col" title="Calibrate draws made for this reviewer">draws</th>
            <th scope="col" title="Draws skipped or left to expire, capped per reviewer: a reviewer skipping most draws steers the calibration set toward easy tasks">
              skipped
            </th>
          </tr>
        </thead>
        <tbody>
          {a.reviewers.map((r) => (
            <tr key={r.reviewer}>
              <th scope="row">{r.reviewer}</th>
              <td>{r.random}</td>
              <td>{r.escalation}</td>
              <td>{r.undone}</td>
              <td>{r.draws}</td>
              <td data-testid="audit-reviewer-skips" data-reviewer={r.reviewer} data-skips={r.skips}>
                {r.draws === 0 ? 0 : `${r.skips} (${Math.round((100 * r.skips) / r.draws)} %)`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

