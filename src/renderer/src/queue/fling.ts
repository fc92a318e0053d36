/** What the fling rule remembers between two scroll events: where the list was, and how many far jumps in a row it made. */
export interface FlingState {
  offset: number
  jumps: number
}

/**
 * The state after a render at `offset` (px scrolled) with the virtualizer's scrolling flag: a jump
 * of more than a screen adds one, a smaller move starts again from none, and so does a stop. A
 * render that did not scroll (a page landing) leaves the count as it was.
 */
export function nextFling(seen: FlingState, offset: number, isScrolling: boolean, screenPx: number): FlingState {
  if (!isScrolling) return { offset, jumps: 0 }
  if (offset === seen.offset) return seen
  return { offset, jumps: screenPx > 0 && Math.abs(offset - seen.offset) > screenPx ? seen.jumps + 1 : 0 }
}
