/** P(seat endorses column | truth row) as shaded cells; the diagonal is being right. */
export function ConfusionHeatmap({ matrix, candidates, seat }: { matrix: number[][]; candidates: readonly string[]; seat: string }) {
  return (
    <table className="heatmap" aria-label={`Confusion matrix of ${seat}`}>
      <thead>
        <tr>
          <th scope="col" className="muted">truth ↓ / says →</th>
          {candidates.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {matrix.map((row, i) => (
          <tr key={candidates[i] ?? i}>
            <th scope="row">{candidates[i]}</th>
            {row.map((p, j) => (
              <td key={j} className={i === j ? 'diag' : undefined} style={{ background: `rgba(${i === j ? '31,122,77' : '179,38,30'}, ${Math.min(1, p).toFixed(3)})` }} title={p.toFixed(3)}>
                {p.toFixed(2)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
