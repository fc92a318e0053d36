/**
 * A global seat index: seat id → dense integer, shared by every TaskTallies of a run so that
 * per-seat parameters (reliabilities, prior means, lnΓ tables) live in flat typed arrays.
 * Indices are assigned in order of first sight and never change.
 */
export class SeatIndex {
  private readonly byId = new Map<string, number>()
  readonly ids: string[] = []

  /** The index of `id`, assigning the next free one on first sight. O(1). */
  index(id: string): number {
    let i = this.byId.get(id)
    if (i === undefined) {
      i = this.ids.length
      this.byId.set(id, i)
      this.ids.push(id)
    }
    return i
  }

  /** The index of `id`, or −1 when it was never seen. */
  find(id: string): number {
    return this.byId.get(id) ?? -1
  }

  get size(): number {
    return this.ids.length
  }
}
