const SLAB_INTS = 1 << 16

let slab = new Int32Array(SLAB_INTS)
let used = 0

/**
 * A zeroed Int32Array of length n carved from a shared 256 KiB slab (a fresh array when n is
 * large). Tallies are built by the hundred thousand and kept: a view on a shared buffer costs
 * far less than a separately allocated typed array, mostly in GC. The view's `.buffer` is the
 * slab — serialise the view (byteOffset, byteLength), never its buffer.
 */
export function slabInts(n: number): Int32Array {
  if (n > SLAB_INTS / 8) return new Int32Array(n)
  if (used + n > SLAB_INTS) {
    slab = new Int32Array(SLAB_INTS)
    used = 0
  }
  const view = new Int32Array(slab.buffer, used * 4, n)
  used += n
  return view
}
