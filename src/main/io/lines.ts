import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'

/**
 * Physical lines of a text, for the line-oriented readers. Handles LF and CRLF, a trailing newline
 * or not, and drops a leading UTF-8 BOM (editors on Windows add one; it is not part of the JSON).
 * A final newline does not make an extra line, so line numbers match an editor's.
 */
export function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const lines = body.split('\n')
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  return lines.map(stripCr)
}

/**
 * The same lines streamed from a file, so a large trace file is validated without holding it whole.
 * readline already splits on CRLF; the BOM and a stray final CR are handled as in splitLines.
 */
export async function* fileLines(path: string): AsyncGenerator<string> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity })
  let first = true
  for await (const line of rl) {
    yield stripCr(first && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line)
    first = false
  }
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line
}

/** A blank line is skipped by every reader but still counted in line numbers. */
export function isBlank(line: string): boolean {
  return line.trim() === ''
}
