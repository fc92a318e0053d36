import { useCallback, useState } from 'react'
import type { KeyGuard } from '../hooks/useArmedAfterPaint'

export interface Dwell {
  /**
   * Whether a label given now counts: the task has been on screen for the reading time. A label
   * given sooner is dropped (never queued: the reviewer sees why and presses again once read).
   */
  admit: () => boolean
  /** The reading time while the reviewer was too quick on this task, for the hint; null otherwise. */
  tooQuick: number | null
}

/**
 * The reading time before a label counts (Settings → `dwellMs`), measured from the task's paint
 * (`guard`): a screen mounts one per task, so it restarts with every task.
 */
export function useDwell(guard: KeyGuard, dwellMs: number): Dwell {
  const [tooQuick, setTooQuick] = useState<number | null>(null)
  const { shownFor } = guard
  const admit = useCallback(() => {
    const shown = shownFor()
    if (shown >= 0 && shown >= dwellMs) return true
    setTooQuick(dwellMs)
    return false
  }, [shownFor, dwellMs])
  return { admit, tooQuick }
}
