import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'

export interface StreamedFile {
  /** SHA-256 of the file's bytes, exactly as stored. */
  sha256: string
  /** With `linesEnd`: SHA-256 of the bytes from `linesEnd` on (what another thread read as its part). */
  tailSha256: string | null
  bytes: number
  lines: number
}

/**
 * A part of the file, for validating it on several threads. Both offsets must be line starts
 * (0, the end, or just after a newline), so that the lines of consecutive parts are the file's.
 */
export interface LineRange {
  /** Read (and hash) from this byte on; a BOM is dropped only at 0. */
  start?: number
  /** Emit only the lines before this byte; the bytes after it are still read and hashed. */
  linesEnd?: number
}

/**
 * Streams a text file's physical lines (as `lines.ts` splits them: LF or CRLF, a leading BOM
 * dropped, no extra line for a final newline) while hashing its bytes, so an import can validate,
 * identify and write a file of any size without holding it: `onLine(line, bytesSoFar)` may return
 * a promise (a batch write), which pauses the read until it settles.
 */
export async function streamFileLines(
  path: string,
  onLine: (line: string, bytesRead: number) => void | Promise<void>,
  range: LineRange = {}
): Promise<StreamedFile> {
  const hash = createHash('sha256')
  const decoder = new StringDecoder('utf8')
  const start = range.start ?? 0
  const linesEnd = range.linesEnd ?? Infinity
  const tail = range.linesEnd === undefined ? null : createHash('sha256')
  let carry = ''
  let bytes = 0
  let lines = 0
  let first = start === 0
  // Synchronous unless the caller returns a promise: awaiting every line would cost a microtask each.
  const emit = (raw: string): void | Promise<void> => {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (first && line.charCodeAt(0) === 0xfeff) line = line.slice(1)
    first = false
    lines++
    return onLine(line, bytes)
  }
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20, start }) as AsyncIterable<Buffer>) {
    hash.update(chunk)
    const before = start + bytes
    bytes += chunk.length
    if (tail !== null && before + chunk.length > linesEnd) tail.update(before >= linesEnd ? chunk : chunk.subarray(linesEnd - before))
    if (before >= linesEnd) continue
    const text = carry + decoder.write(before + chunk.length > linesEnd ? chunk.subarray(0, linesEnd - before) : chunk)
    let from = 0
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      const r = emit(text.slice(from, nl))
      if (r !== undefined) await r
      from = nl + 1
    }
    carry = text.slice(from)
  }
  if (start + bytes <= linesEnd) carry += decoder.end()
  if (carry !== '') await emit(carry)
  return { sha256: hash.digest('hex'), tailSha256: tail === null ? null : tail.digest('hex'), bytes, lines }
}

/** SHA-256 of a file's bytes, streamed. */
export async function fileSha256(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk)
    bytes += chunk.length
  }
  return { sha256: hash.digest('hex'), bytes }
}

export async function fileSize(path: string): Promise<number> {
  return (await stat(path)).size
}
