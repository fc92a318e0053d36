/**
 * Int32 arrays as stored by both backends (a BLOB in SQLite, bytea in PostgreSQL): the
 * little-endian bytes of the VIEW (byteOffset/byteLength). The engine's arrays are views on a
 * shared slab, so `.buffer` would store the neighbours too.
 */
import { endianness } from 'node:os'

/** Whether this machine's Int32Array bytes already are the stored (little-endian) bytes. */
export const LITTLE_ENDIAN = endianness() === 'LE'

export function int32ToBytes(a: Int32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(a.buffer, a.byteOffset, a.byteLength)
  const out = Buffer.alloc(a.length * 4)
  for (let i = 0; i < a.length; i++) out.writeInt32LE(a[i], i * 4)
  return out
}

/** A copy: the driver's buffer may start at any byte offset, and an Int32Array needs 4-byte alignment. */
export function bytesToInt32(b: Uint8Array): Int32Array {
  const out = new Int32Array(b.byteLength >> 2)
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(b.subarray(0, out.length * 4))
  else {
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength)
    for (let i = 0; i < out.length; i++) out[i] = view.getInt32(i * 4, true)
  }
  return out
}
