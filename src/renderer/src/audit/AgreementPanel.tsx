import type { AgreementView, KappaView } from '@shared/api'
import { TableHead } from '../components/TableHead'

const fmt = (x: number | null) => (x === null ? '—' : x.toFixed(3))

function KappaCells({ k }: { k: KappaView }) {
  return (
    <>
      <td>{k.tasks}</td>
      <td>{fmt(k.observed)}</td>
      <td>{fmt(k.expected)}</td>
      <td>
        <strong>{fmt(k.kappa)}</strong>
      </td>
    </>
  )
}

/**
 * Agreement between reviewers: Cohen's κ per pair over the tasks both labeled, Fleiss' κ
 * over every task two or more labeled (generalised to a varying number of reviewers per task).
 */
export function AgreementPanel({ agreement }: { agreement: AgreementView }) {
  const o = agreement.overall
  return (
    <section className="panel wide" data-testid="audit-agreement" aria-labelledby="agreement-heading">
      <h2 id="agreement-heading">Agreement between reviewers</h2>
      {o === null ? (
        <p className="muted" data-testid="agreement-none">
          No task has labels from two reviewers yet: set reviewers per task above 1 (Settings → Team) and label in Calibrate.
        </p>
      ) : (
        <>
          <table className="data">
            <TableHead columns={['reviewers', 'tasks', 'observed P_o', 'chance P_e', 'κ']} />
            <tbody>
              <tr data-testid="agreement-overall" data-kappa={o.kappa ?? ''} data-tasks={o.tasks}>
                <th scope="row">
                  all ({o.minRaters === o.maxRaters ? o.minRaters : `${o.minRaters}–${o.maxRaters}`} per task) · Fleiss
                </th>
                <KappaCells k={o} />
              </tr>
              {agreement.pairs.map((p) => (
                <tr key={`${p.a}\u0000${p.b}`} data-testid="agreement-pair" data-a={p.a} data-b={p.b} data-kappa={p.kappa ?? ''} data-tasks={p.tasks}>
                  <th scope="row">
                    {p.a} · {p.b} · Cohen
                  </th>
                  <KappaCells k={p} />
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">
            κ = (P_o − P_e) / (1 − P_e): agreement beyond chance; 1 is perfect, 0 no better than chance; — when chance agreement is certain. Each
            reviewer’s latest label counts; an adjudicator’s ruling does not.
          </p>
        </>
      )}
    </section>
  )
}
