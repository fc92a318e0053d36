/**
 * A job (a fit, a background refit, an import, an audit) is background work beside a reviewer's
 * keys: its thread runs at a lower priority, so on a small machine the server's and the window's
 * threads get the cores first (resolve → next while a refit runs). Linux only: there a
 * nice value belongs to one thread (and the threads it starts), while on macOS and Windows the
 * same call would lower the whole process — the window's main thread with it.
 */
import { getPriority, setPriority } from 'node:os'

/** Nice 10: half-way down; a job on an idle machine still gets every idle cycle. */
export const JOB_NICE = 10

/** Lowers the calling thread, on Linux; returns the nice value it now runs at (null: left as it was). */
export function lowerThisThread(platform: NodeJS.Platform = process.platform): number | null {
  if (platform !== 'linux') return null
  try {
    // Never raises a thread already lower (a job started from a job).
    if (getPriority(0) < JOB_NICE) setPriority(0, JOB_NICE)
    return getPriority(0)
  } catch {
    // Not permitted here (a sandbox): run as is.
    return null
  }
}
