import { useEffect, useRef } from 'react'
import { LONG_TEXT_LIMIT, shortLabel } from '../components/LongText'
import { keyForIndex } from './candidate-keys'
import { DIGIT_KEYS, type CandidateKeys } from './use-candidate-keys'

/** A candidate's button shows this much of it (its start; the tooltip holds more). */
const CANDIDATE_CHARS = 120

interface Props {
  candidates: readonly string[]
  keys: CandidateKeys
  /** The live label, if any. */
  current: string | null
  disabled: boolean
  onPick: (candidate: string) => void
}

export function CandidateButtons({ candidates, keys, current, disabled, onPick }: Props) {
  const { shown, focused, filter } = keys
  const buttons = useRef(new Map<number, HTMLButtonElement>())
  // The focus the arrows move is the browser's own too: its ring shows, and a screen reader follows it.
  useEffect(() => {
    if (focused !== null) buttons.current.get(focused)?.focus()
  }, [focused])
  return (
    <div className="candidate-picker">
      {filter !== null && <CandidateFilter keys={keys} total={candidates.length} />}
      <div className="candidates" role="group" aria-label="Resolve with a candidate">
        {shown.map((ci, i) => {
          const c = candidates[ci]
          const key = keyForIndex(i)
          return (
            <button
              key={`${ci}:${c}`}
              ref={(el) => {
                if (el) buttons.current.set(ci, el)
                else buttons.current.delete(ci)
              }}
              type="button"
              className={`candidate${ci === focused ? ' focused' : ''}${c === current ? ' chosen' : ''}`}
              data-testid="review-candidate"
              data-candidate={c}
              data-key={key ?? ''}
              data-focused={ci === focused ? 'true' : undefined}
              disabled={disabled}
              aria-keyshortcuts={key ?? undefined}
              onFocus={() => keys.onFocusCandidate(ci)}
              onClick={() => onPick(c)}
            >
              {key !== null && <kbd>{key}</kbd>}
              <span className="candidate-text" title={c.length > CANDIDATE_CHARS ? c.slice(0, LONG_TEXT_LIMIT) : undefined}>
                {shortLabel(c, CANDIDATE_CHARS)}
              </span>
            </button>
          )
        })}
        {shown.length === 0 && <span className="muted">No candidate contains “{filter}”.</span>}
      </div>
      {filter === null && candidates.length > DIGIT_KEYS && (
        <p className="muted small">
          {candidates.length} candidates: <kbd>/</kbd> filters them by typing, then a digit picks among the matches.
        </p>
      )}
    </div>
  )
}

/** `/`'s box: typing narrows the candidates; Enter leaves it so a digit picks, Esc clears it. */
function CandidateFilter({ keys, total }: { keys: CandidateKeys; total: number }) {
  return (
    <label className="candidate-filter">
      <span className="muted small">Filter</span>
      <input
        ref={keys.filterRef}
        type="search"
        data-testid="candidate-filter"
        value={keys.filter ?? ''}
        aria-describedby="candidate-filter-hint"
        onChange={(e) => keys.setFilter(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            e.currentTarget.blur()
          } else if (e.key === 'Escape') {
            e.preventDefault()
            keys.setFilter(null)
          }
        }}
      />
      <span id="candidate-filter-hint" className="muted small">
        {keys.shown.length} of {total} match · <kbd>Enter</kbd> then a digit picks · <kbd>Esc</kbd> clears
      </span>
    </label>
  )
}
