/**
 * A job's threads run at a lower CPU priority than the window's (issue #16): on a 2-core machine a
 * refit's two threads (deciding, writing) took both cores while the reviewer's next task waited
 * for one. Linux keeps a nice value per thread, and setpriority(PRIO_PROCESS, 0) — what
 * `os.setPriority(0, …)` calls — changes only the calling thread's, so each job thread lowers its
 * own. Elsewhere the same call would lower the whole process (the window's thread included), so
 * other systems keep one priority.
 */
import { setPriority } from 'node:os'

/** The nice value of a job's threads (0 is the window's; 19 the lowest). */
export const BACKGROUND_NICE = 10

/** Lowers the calling thread's priority, on Linux; returns whether it did. */
export function lowerThisThreadsPriority(): boolean {
  if (process.platform !== 'linux') return false
  try {
    setPriority(0, BACKGROUND_NICE)
    return true
  } catch {
    // Not permitted here (a sandbox): the thread keeps its priority.
    return false
  }
}
