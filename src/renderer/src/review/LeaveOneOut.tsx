import type { SeatView } from '@shared/api'
import { shortLabel } from '../components/LongText'

/** What the answer would be without each seat (same fit, that seat's endorsements dropped). */
export function LeaveOneOut({ seats, answer }: { seats: readonly SeatView[]; answer: string }) {
  if (seats.length === 0) return null
  return (
    <table className="loo">
      <caption>Without each seat</caption>
      <thead>
        <tr>
          <th scope="col">without</th>
          <th scope="col">answer</th>
          <th scope="col">shift</th>
        </tr>
      </thead>
      <tbody>
        {seats.map((s) => {
          const top = argmax(s.influence.posterior)
          return (
            <tr key={s.seat} className={top !== answer ? 'flips' : undefined}>
              <th scope="row">{s.seat}</th>
              <td>
                {top === null ? '—' : shortLabel(top)}
                {top !== answer && <span className="tag tag-bad">flips</span>}
              </td>
              <td>{s.influence.shift.toFixed(3)}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

function argmax(p: Record<string, number>): string | null {
  let best: string | null = null
  for (const [k, v] of Object.entries(p)) if (best === null || v > p[best]) best = k
  return best
}
