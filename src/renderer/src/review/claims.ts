/**
 * Tasks this window has just reserved with "next" (use-next-task.ts): the review screen that opens
 * one holds it already, so it does not reserve it a second time — one write and one re-render less
 * on every resolve → next. A claim is used once, and only while fresh: a task opened
 * later (the reviewer went elsewhere first) is reserved as usual.
 */
const FRESH_MS = 10_000

const claims = new Map<string, number>()

export function noteClaim(taskId: string): void {
  claims.set(taskId, Date.now())
}

/** Whether "next" reserved this task for this window a moment ago; the claim is used up either way. */
export function takeClaim(taskId: string): boolean {
  const at = claims.get(taskId)
  claims.delete(taskId)
  return at !== undefined && Date.now() - at < FRESH_MS
}
