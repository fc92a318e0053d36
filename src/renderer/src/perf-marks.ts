/**
 * User-timing marks around the review loop's hot paths (a key press or click → the next screen painted),
 * so the UI benchmark measures what a reviewer waits for, not its driver's polling. They cost
 * nothing measurable and show up in the browser's performance panel.
 */
export function markKey(what: 'open' | 'resolve'): void {
  performance.mark(`arbiter:${what}-key`)
}

/** Marks the first frame after `taskId`'s review screen rendered. */
export function markShown(taskId: string): void {
  requestAnimationFrame(() => performance.mark(`arbiter:shown:${taskId}`))
}
