import { useRef } from 'react'
import type { JsonValue } from '@shared/json'
import { LongText, shortLabel } from '../components/LongText'
import { isBareVote } from './stance'

export interface TranscriptMove {
  id: string
  round: number
  seat: string
  force: string
  answer: string | null
  target: string | null
  /** Any JSON value, as the file gave it (docs/engine.md §1); null: none. */
  confidence: JsonValue | null
  text: string | null
}

const seatSign = (w: number | undefined): 'none' | 'neg' | 'pos' => (w === undefined ? 'none' : w < 0 ? 'neg' : 'pos')

/** A confidence as given: a string as itself, any other value as its JSON (React text either way, never markup). */
export function confidenceText(c: JsonValue): string {
  return typeof c === 'string' ? c : JSON.stringify(c)
}

/**
 * The debate by round. Every string is hostile LLM output: it is rendered as React text only,
 * never as HTML. Seats are coloured by the sign of their weight; a link jumps to the move a
 * challenge or concede targets without touching the URL (hash routes belong to the app). Two or
 * more bare votes of a round (no text beyond the answer) collapse into one compact line.
 */
export function Transcript({ moves, weights }: { moves: readonly TranscriptMove[]; weights: Readonly<Record<string, number>> }) {
  const cards = useRef(new Map<string, HTMLElement>())
  const byId = new Map(moves.map((m) => [m.id, m]))
  const rounds = [...new Set(moves.map((m) => m.round))].sort((a, b) => a - b)

  const jump = (id: string) => {
    const el = cards.current.get(id)
    if (!el) return
    el.scrollIntoView({ block: 'center', behavior: 'smooth' })
    el.classList.add('flash')
    window.setTimeout(() => el.classList.remove('flash'), 900)
  }

  if (moves.length === 0) return <p className="muted">This task has no moves.</p>
  return (
    <div className="transcript">
      {rounds.map((r) => (
        <section key={r} className="round" aria-label={`Round ${r}`}>
          <h3>Round {r}</h3>
          {(() => {
            const inRound = moves.filter((m) => m.round === r)
            const votes = inRound.filter(isBareVote)
            // Bare votes collapse into one compact line, placed where the round's first one falls.
            const firstVote = votes.length > 1 ? votes[0] : undefined
            return inRound.map((m) => {
              if (firstVote !== undefined && isBareVote(m)) {
                if (m !== firstVote) return null
                return (
                  <div key={`votes-${r}`} className="vote-line" data-testid="vote-line" data-round={r} aria-label={`Votes in round ${r}`}>
                    <span className="force force-vote">votes</span>
                    {votes.map((v) => {
                      const sign = seatSign(weights[v.seat])
                      return (
                        <span
                          key={v.id}
                          ref={(el) => {
                            if (el) cards.current.set(v.id, el)
                            else cards.current.delete(v.id)
                          }}
                          className={`vote-chip seat-${sign}`}
                          data-testid="transcript-move"
                          data-move-id={v.id}
                          data-seat={v.seat}
                          data-force={v.force}
                          title={`${v.id}${v.confidence !== null ? ` · conf. ${confidenceText(v.confidence)} (not used)` : ''}`}
                        >
                          <span className={`seat-chip seat-${sign}`}>{v.seat}</span> <span className="answer">{v.answer}</span>
                        </span>
                      )
                    })}
                  </div>
                )
              }
              const w = weights[m.seat]
              const sign = seatSign(w)
              const target = m.target ? byId.get(m.target) : undefined
              return (
                <article
                  key={m.id}
                  ref={(el) => {
                    if (el) cards.current.set(m.id, el)
                    else cards.current.delete(m.id)
                  }}
                  className={`move seat-${sign}`}
                  data-testid="transcript-move"
                  data-move-id={m.id}
                  data-seat={m.seat}
                  data-force={m.force}
                >
                  <header>
                    <span className={`seat-chip seat-${sign}`} title={w === undefined ? 'no weight' : `weight ${w.toFixed(2)}`}>
                      {m.seat}
                    </span>
                    <span className={`force force-${m.force}`}>{m.force}</span>
                    {m.answer !== null && (m.force === 'propose' || m.force === 'vote') && <span className="answer">{shortLabel(m.answer)}</span>}
                    {target && (
                      <button type="button" className="link" onClick={() => jump(target.id)} title="Show the targeted move">
                        → {target.seat}’s {target.force}
                        {target.answer !== null && target.force !== 'challenge' && target.force !== 'concede' ? ` of ${target.answer}` : ''} ({target.id})
                      </button>
                    )}
                    <span className="move-id muted">{m.id}</span>
                    {m.confidence !== null && (
                      <span className="confidence muted" title="Self-reported; the engine never reads it">
                        conf. {confidenceText(m.confidence)} (not used)
                      </span>
                    )}
                  </header>
                  {m.text !== null && m.text !== '' && !isBareVote(m) && <LongText as="p" className="move-text" text={m.text} />}
                </article>
              )
            })
          })()}
        </section>
      ))}
    </div>
  )
}
