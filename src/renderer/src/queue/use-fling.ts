import { useRef } from 'react'
import { nextFling, type FlingState } from './fling'

/**
 * Whether the list is being flung: its scroll moved more than a screen at each of its last two
 * scroll events (the scrollbar dragged, a flick), without stopping. The queue fetches no page a
 * fling only passes through — a drag from the top of 99,000 rows to their end would otherwise ask
 * the server for every page it crosses, pages nobody reads, and draw each as it lands (no
 * long task while scrolling). One jump (a key, a click on the track) still fetches at once, and so does a
 * wheel's pace; when the fling stops (the virtualizer's scrolling flag clears), the pages in view load.
 *
 * Kept in a ref and advanced during render, from the virtualizer's own offset and flag: both change
 * only on a scroll event, so a render for another reason (or React rendering twice) changes nothing.
 */
export function useFling(offset: number, isScrolling: boolean, screenPx: number): boolean {
  const seen = useRef<FlingState>({ offset, jumps: 0 })
  seen.current = nextFling(seen.current, offset, isScrolling, screenPx)
  return seen.current.jumps >= 2
}
