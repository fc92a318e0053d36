import { useCallback, useEffect, useRef } from 'react'

export interface KeyGuard {
  /** True once the screen of the id it was given has been painted. */
  isArmed: () => boolean
  /** How long the screen of that id has been on screen since its paint (ms); -1 until it is painted. */
  shownFor: () => number
  /**
   * For the screen's root: it carries `data-keys-armed` ("false", then "true") and `data-dwell-met`
   * ("true" once the reading time has passed), so tests and the bench can wait for them.
   */
  rootRef: (el: HTMLElement | null) => void
}

/**
 * The key guard of a task screen: a screen's keys apply only once `id`'s screen
 * has been painted. A key typed ahead while the previous task was leaving — a second Enter, a
 * digit — must never apply to a task the reviewer has not seen. Two frames: the first runs before
 * the paint that shows the task, the second after it. Arming renders nothing (a ref and the root's
 * attributes): a re-render then would restart the background render of the task's charts.
 * `dwellMs` only times the root's `data-dwell-met`; the reading-time rule itself is useDwell's.
 */
export function useArmedAfterPaint(id: string, dwellMs = 0): KeyGuard {
  const armedFor = useRef<string | null>(null)
  const shownAt = useRef(0)
  const root = useRef<HTMLElement | null>(null)
  const dwell = useRef(dwellMs)
  dwell.current = dwellMs
  const rootRef = useCallback((el: HTMLElement | null) => {
    root.current = el
    el?.setAttribute('data-keys-armed', 'false')
    el?.setAttribute('data-dwell-met', 'false')
  }, [])
  useEffect(() => {
    armedFor.current = null
    root.current?.setAttribute('data-keys-armed', 'false')
    root.current?.setAttribute('data-dwell-met', 'false')
    let second = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => {
        armedFor.current = id
        shownAt.current = performance.now()
        root.current?.setAttribute('data-keys-armed', 'true')
        timer = setTimeout(() => root.current?.setAttribute('data-dwell-met', 'true'), dwell.current)
      })
    })
    return () => {
      cancelAnimationFrame(first)
      cancelAnimationFrame(second)
      clearTimeout(timer)
    }
  }, [id])
  const isArmed = useCallback(() => armedFor.current === id, [id])
  const shownFor = useCallback(() => (armedFor.current === id ? performance.now() - shownAt.current : -1), [id])
  return { isArmed, shownFor, rootRef }
}
