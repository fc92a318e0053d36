import { useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import type { HotkeyMap } from '../hooks/useHotkeys'
import { indexForKey, matching } from './candidate-keys'

/** Digits reach the first ten candidates shown; a task with more offers `/` to filter them by typing. */
export const DIGIT_KEYS = 10

export interface CandidateKeys {
  /** Indices into the task's candidates that are shown and numbered 1–9, 0: all, or the filter's matches. */
  shown: number[]
  /** The candidate the reviewer moved the focus to in this task (arrows, Tab); null until they do. */
  focused: number | null
  onFocusCandidate: (i: number) => void
  /** The filter box's text; null while there is no filter. */
  filter: string | null
  setFilter: (f: string | null) => void
  filterRef: RefObject<HTMLInputElement | null>
  /** Digits, ← →, Enter and `/` for the screen's hotkey map. */
  keys: HotkeyMap
}

/**
 * Candidate keys shared by Review and Calibrate. Nothing is focused when
 * a task appears, so a bare Enter labels nothing until the reviewer has moved the focus to a
 * candidate of this task; ← → start moving it (↑ ↓ are left to scroll the page). A key's
 * auto-repeat (`repeat`) never labels: a held key would label every task that comes after.
 */
export function useCandidateKeys(candidates: readonly string[], pick: (candidate: string) => void): CandidateKeys {
  const [focused, setFocused] = useState<number | null>(null)
  const [filter, setFilterText] = useState<string | null>(null)
  const [opened, setOpened] = useState(0)
  const filterRef = useRef<HTMLInputElement | null>(null)
  const shown = useMemo(() => matching(candidates, filter), [candidates, filter])

  // `/` focuses the box, also when a filter is already there (the reviewer refines it).
  useEffect(() => {
    if (opened > 0) filterRef.current?.focus()
  }, [opened])

  const setFilter = (f: string | null) => {
    setFilterText(f)
    // A focus set among other candidates would point at one the reviewer no longer sees.
    setFocused(null)
  }
  const move = (step: 1 | -1) =>
    setFocused((f) => {
      const at = f === null ? -1 : shown.indexOf(f)
      if (at === -1) return (step === 1 ? shown[0] : shown.at(-1)) ?? null
      return shown[Math.min(shown.length - 1, Math.max(0, at + step))]
    })

  const keys: HotkeyMap = {
    ...Object.fromEntries(
      ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'].map((k) => [
        k,
        (e: KeyboardEvent) => {
          if (e.repeat) return
          const i = indexForKey(k)
          if (i !== null && i < shown.length) pick(candidates[shown[i]])
        }
      ])
    ),
    ArrowRight: () => move(1),
    ArrowLeft: () => move(-1),
    Enter: (e) => {
      if (!e.repeat && focused !== null) pick(candidates[focused])
    }
  }
  if (candidates.length > DIGIT_KEYS) {
    keys['/'] = () => {
      setFilterText((f) => f ?? '')
      setOpened((n) => n + 1)
    }
  }
  return { shown, focused, onFocusCandidate: setFocused, filter, setFilter, filterRef, keys }
}
