import type { VoteUnit } from '@shared/api'

export interface SeatWeightView {
  seat: string
  model: string | null
  weight: number
  reliability: number
  /** Endorsements on labeled tasks that the reliability rests on (null: unsupervised method). */
  evidence: number | null
  /** The log-odds one vote of the seat adds here under the active method (null: no one-coin μ_i). */
  voteEvidence: number | null
  /** r_i < 1/K: worse than chance (docs/engine.md §4 — only then is a seat called adversarial). */
  adversarial: boolean
}

/**
 * Seat weights as diverging bars: a negative weight means the seat's endorsements count against what
 * it endorses. Plain elements, as the posterior's bars (PosteriorChart.tsx says why).
 */
export function SeatWeightsChart({ seats, unit }: { seats: readonly SeatWeightView[]; unit: VoteUnit | null }) {
  const head = headings(unit)
  const max = Math.max(1, ...seats.map((s) => Math.abs(s.weight)))
  return (
    <div className="seat-weights">
      <figure className="chart hbars diverging" aria-label="Seat weights">
        {seats.map((s) => {
          // Half the track each way from zero, scaled to the largest |w| (at least 1).
          const share = `${(50 * Math.min(1, Math.abs(s.weight) / max)).toFixed(3)}%`
          return (
            <div key={s.seat} className="hbar-row">
              <span className="hbar-label">{s.seat}</span>
              <span className="hbar-track">
                <span className="hbar-zero" aria-hidden="true" />
                <span
                  role="img"
                  aria-label={`${s.seat} weight ${s.weight.toFixed(2)}`}
                  className={s.weight < 0 ? 'hbar hbar-negative' : 'hbar hbar-positive'}
                  style={s.weight < 0 ? { right: '50%', width: share } : { left: '50%', width: share }}
                />
              </span>
            </div>
          )
        })}
      </figure>
      <div className="seat-table-wrap">
        <table className="seat-table">
          <thead>
            <tr>
              <th scope="col">seat</th>
              <th scope="col" title="w_i = ln(μ_i/(1 − μ_i))">weight</th>
              <th scope="col" title={head.perTitle} data-testid="seat-vote-unit" data-unit={unit ?? ''}>
                <Narrow long={head.perLong} short={head.perShort} />
              </th>
              <th scope="col" title={head.relTitle}>
                <Narrow long="reliability" short="rel." />
              </th>
              <th scope="col" title={head.evidenceTitle}><Narrow long="evidence" short="evid." /></th>
            </tr>
          </thead>
          <tbody>
            {seats.map((s) => (
              <tr
                key={s.seat}
                className={s.weight < 0 ? 'negative' : undefined}
                data-testid="seat-weight"
                data-seat={s.seat}
                data-weight={String(s.weight)}
                data-reliability={String(s.reliability)}
              >
                <th scope="row" title={s.model ?? undefined}>
                  {s.seat}
                  {s.adversarial && (
                    <span className="tag tag-bad" title="adversarial: reliability below 1/K">
                      <Narrow long="adversarial" short="adv." />
                    </span>
                  )}
                </th>
                <td>{s.weight.toFixed(2)}</td>
                <td
                  data-testid="seat-vote-evidence"
                  data-seat={s.seat}
                  {...(s.voteEvidence === null ? {} : { 'data-evidence': String(s.voteEvidence) })}
                  className={s.voteEvidence !== null && s.voteEvidence < 0 ? 'negative-figure' : undefined}
                >
                  {s.voteEvidence === null ? '—' : `${s.voteEvidence >= 0 ? '+' : ''}${s.voteEvidence.toFixed(2)}`}
                </td>
                <td>{s.reliability.toFixed(3)}</td>
                <td>{s.evidence ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

/** The table's headings under the active method: each per-seat figure is that method's (docs/engine.md §11 for the standing vote, §3–§4 otherwise). */
function headings(unit: VoteUnit | null): { perLong: string; perShort: string; perTitle: string; relTitle: string; evidenceTitle: string } {
  if (unit === 'standing answer') {
    return {
      perLong: 'per vote', perShort: 'per vote',
      perTitle: 'log-odds the seat’s standing answer adds to its candidate against each other one: w_i, counted once however often the seat repeats it (standing vote, docs/engine.md §11)',
      relTitle: 'reliability r_i: labeled tasks whose standing answer at the last round is the label (+1) over tasks where the seat has one (+2) (docs/engine.md §11)',
      evidenceTitle: 'labeled tasks where the seat has a standing answer: what its reliability rests on'
    }
  }
  return {
    perLong: 'per endorsement', perShort: 'per end.',
    perTitle: 'log-odds one +1 endorsement of this seat adds in this task: ln(μ_i(K − 1)/(1 − μ_i)) at this task’s K (docs/engine.md §3)',
    relTitle: 'reliability r_i (docs/engine.md §4)',
    evidenceTitle: 'endorsements on labeled tasks the reliability rests on'
  }
}

/** A label with a short form the narrow side panel (1024 px) shows instead (styles.css); the hidden one is display: none, so assistive tech reads the shown one. */
function Narrow({ long, short }: { long: string; short: string }) {
  return (
    <>
      <span className="wide-only">{long}</span>
      <span className="narrow-only">{short}</span>
    </>
  )
}
