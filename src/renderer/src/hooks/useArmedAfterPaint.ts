import { useEffect, useState } from 'react'

/**
 * The key guard of a task screen (issue #16 item 1): true only once `id`'s screen has been painted.
 * A key typed ahead while the previous task was leaving — a second Enter, a digit — must never
 * apply to a task the reviewer has not seen, so a screen's shortcuts stay off until then. Two
 * frames: the first runs before the paint that shows the task, the second after it.
 */
export function useArmedAfterPaint(id: string): boolean {
  const [armedFor, setArmedFor] = useState<string | null>(null)
  useEffect(() => {
    let second = 0
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => setArmedFor(id))
    })
    return () => {
      cancelAnimationFrame(first)
      cancelAnimationFrame(second)
    }
  }, [id])
  return armedFor === id
}
