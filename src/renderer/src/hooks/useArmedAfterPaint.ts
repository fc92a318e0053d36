import { useCallback, useEffect, useRef } from 'react'

export interface KeyGuard {
  /** True once the screen of the id it was given has been painted. */
  isArmed: () => boolean
  /** For the screen's root: it carries `data-keys-armed` ("false", then "true"), so tests and the bench can wait for it. */
  rootRef: (el: HTMLElement | null) => void
}

/**
 * The key guard of a task screen: a screen's keys apply only once `id`'s screen
 * has been painted. A key typed ahead while the previous task was leaving — a second Enter, a
 * digit — must never apply to a task the reviewer has not seen. Two frames: the first runs before
 * the paint that shows the task, the second after it. Arming renders nothing (a ref and the root's
 * attribute): a re-render then would restart the background render of the task's charts.
 */
export function useArmedAfterPaint(id: string): KeyGuard {
  const armedFor = useRef<string | null>(null)
  const root = useRef<HTMLElement | null>(null)
  const rootRef = useCallback((el: HTMLElement | null) => {
    root.current = el
    el?.setAttribute('data-keys-armed', 'false')
  }, [])
  useEffect(() => {
    armedFor.current = null
    root.current?.setAttribute('data-keys-armed', 'false')
    let second = 0
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => {
        armedFor.current = id
        root.current?.setAttribute('data-keys-armed', 'true')
      })
    })
    return () => {
      cancelAnimationFrame(first)
      cancelAnimationFrame(second)
    }
  }, [id])
  const isArmed = useCallback(() => armedFor.current === id, [id])
  return { isArmed, rootRef }
}
