import { stanceMatrix, type StanceMove } from './stance'
import { shortLabel } from '../components/LongText'

/**
 * Seat × round: each seat's answer as it stands after each round (stance.ts), coloured by the
 * sign of the seat's weight. A change of answer is marked, so turns read at a glance.
 */
export function StanceMatrix({ moves, weights }: { moves: readonly StanceMove[]; weights: Readonly<Record<string, number>> }) {
  const { seats, rounds, stance } = stanceMatrix(moves)
  if (seats.length === 0) return null
  return (
    <div className="stance-wrap">
      <table className="stance-matrix" data-testid="stance-matrix" aria-label="Each seat’s answer as it stands per round">
        <caption>Stance by round <span className="muted">(latest endorsed answer; a retract clears it)</span></caption>
        <thead>
          <tr>
            <th scope="col">seat</th>
            {rounds.map((r) => (
              <th key={r} scope="col">
                round {r}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {seats.map((seat) => {
            const w = weights[seat]
            const sign = w === undefined ? 'none' : w < 0 ? 'neg' : 'pos'
            return (
              <tr key={seat}>
                <th scope="row">
                  <span className={`seat-chip seat-${sign}`} title={w === undefined ? 'no weight' : `weight ${w.toFixed(2)}`}>
                    {seat}
                  </span>
                </th>
                {stance[seat].map((answer, j) => {
                  const changed = j > 0 && answer !== stance[seat][j - 1]
                  return (
                    <td
                      key={rounds[j]}
                      className={`stance-cell seat-${sign}${answer === null ? ' stance-none' : ''}${changed ? ' stance-changed' : ''}`}
                      data-testid="stance-cell"
                      data-seat={seat}
                      data-round={rounds[j]}
                      {...(answer === null ? {} : { 'data-candidate': answer })}
                      title={answer === null ? `${seat}: no answer at round ${rounds[j]}` : `${seat} at round ${rounds[j]}: ${shortLabel(answer, 400)}${changed ? ' (changed)' : ''}`}
                    >
                      {answer === null ? '—' : shortLabel(answer, 40)}
                    </td>
                  )
                })}
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
