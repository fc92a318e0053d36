/** Keys 1–9 then 0 resolve the first ten candidates; more are reached with the arrows and Enter. */
export function keyForIndex(i: number): string | null {
  if (i < 9) return String(i + 1)
  if (i === 9) return '0'
  return null
}

export function indexForKey(key: string): number | null {
  if (key === '0') return 9
  return /^[1-9]$/.test(key) ? Number(key) - 1 : null
}

interface Props {
  candidates: readonly string[]
  /** Highlighted by the arrow keys; Enter resolves it. */
  focused: number
  /** The live label, if any. */
  current: string | null
  disabled: boolean
  onPick: (candidate: string) => void
}

export function CandidateButtons({ candidates, focused, current, disabled, onPick }: Props) {
  return (
    <div className="candidates" role="group" aria-label="Resolve with a candidate">
      {candidates.map((c, i) => {
        const key = keyForIndex(i)
        return (
          <button
            key={`${i}:${c}`}
            type="button"
            className={`candidate${i === focused ? ' focused' : ''}${c === current ? ' chosen' : ''}`}
            data-testid="review-candidate"
            data-candidate={c}
            data-key={key ?? ''}
            disabled={disabled}
            aria-keyshortcuts={key ?? undefined}
            onClick={() => onPick(c)}
          >
            {key !== null && <kbd>{key}</kbd>}
            <span className="candidate-text">{c}</span>
          </button>
        )
      })}
    </div>
  )
}
