import { Bar, BarChart, Cell, ReferenceLine, ResponsiveContainer, XAxis, YAxis, type BarShapeProps } from 'recharts'

export interface SeatWeightView {
  seat: string
  model: string | null
  weight: number
  reliability: number
  /** Endorsements on labeled tasks that the reliability rests on (null: unsupervised method). */
  evidence: number | null
  /** ln(μ_i(K − 1)/(1 − μ_i)) at this task's K: what one +1 endorsement carries here (null: no one-coin μ_i). */
  endorsementEvidence: number | null
  /** r_i < 1/K: worse than chance (ENGINE.md §4 — only then is a seat called adversarial). */
  adversarial: boolean
}

/** Seat weights as diverging bars: a negative weight means the seat's endorsements count against what it endorses. */
export function SeatWeightsChart({ seats }: { seats: readonly SeatWeightView[] }) {
  const max = Math.max(1, ...seats.map((s) => Math.abs(s.weight)))
  const height = 28 * seats.length + 24
  return (
    <div className="seat-weights">
      <figure className="chart" aria-label="Seat weights">
        <ResponsiveContainer width="100%" height={height}>
          <BarChart data={seats.map((s) => ({ ...s }))} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }}>
            <XAxis type="number" domain={[-max, max]} hide />
            <YAxis type="category" dataKey="seat" width={70} tickLine={false} axisLine={false} tick={{ fill: 'var(--text)', fontSize: 12 }} />
            <ReferenceLine x={0} stroke="var(--border-strong)" />
            <Bar dataKey="weight" isAnimationActive={false} shape={(props: BarShapeProps) => <WeightRect {...props} />}>
              {seats.map((s) => (
                <Cell key={s.seat} fill={s.weight < 0 ? 'var(--bad)' : 'var(--good)'} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </figure>
      <div className="seat-table-wrap">
        <table className="seat-table">
          <thead>
            <tr>
              <th scope="col">seat</th>
              <th scope="col" title="w_i = ln(μ_i/(1 − μ_i)) (ENGINE.md §6)">weight</th>
              <th scope="col" title="log-odds one endorsement of this seat adds in this task: ln(μ_i(K − 1)/(1 − μ_i)) at this task's K">
                <Narrow long="per endorsement" short="per end." />
              </th>
              <th scope="col" title="reliability r_i (ENGINE.md §4)">
                <Narrow long="reliability" short="rel." />
              </th>
              <th scope="col" title="endorsements on labeled tasks the reliability rests on"><Narrow long="evidence" short="evid." /></th>
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
                  data-testid="seat-endorsement-evidence"
                  data-seat={s.seat}
                  {...(s.endorsementEvidence === null ? {} : { 'data-evidence': String(s.endorsementEvidence) })}
                  className={s.endorsementEvidence !== null && s.endorsementEvidence < 0 ? 'negative-figure' : undefined}
                >
                  {s.endorsementEvidence === null ? '—' : `${s.endorsementEvidence >= 0 ? '+' : ''}${s.endorsementEvidence.toFixed(2)}`}
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

function WeightRect(props: BarShapeProps) {
  const { x, y, width, height, fill, payload } = props
  const s = payload as SeatWeightView
  // Recharts hands negative bars a negative width: normalise so the rect is drawable.
  const left = width < 0 ? x + width : x
  return <rect aria-label={`${s.seat} weight ${s.weight.toFixed(2)}`} x={left} y={y} width={Math.abs(width)} height={height} fill={fill} rx={2} />
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
