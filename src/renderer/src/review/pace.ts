/** A label with the time it was acknowledged (ms since the epoch). */
export interface Timed {
  at: number
}

/** The session's pace: labels after the first over the time since it (a first label has no pace yet). */
export function pace(reviewed: readonly Timed[]): number | null {
  if (reviewed.length < 2) return null
  const ms = reviewed[reviewed.length - 1].at - reviewed[0].at
  return ms > 0 ? ((reviewed.length - 1) * 3_600_000) / ms : null
}
