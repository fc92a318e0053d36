import { open } from 'node:fs/promises'

/**
 * How a file begins, for the checks made before a reader is chosen: null when it holds nothing but
 * blanks (and a BOM); else its first non-blank line's number and up to the first CHUNK characters
 * of that line. Reads on only while the file is blank, so a large file costs one read.
 */
export async function fileStart(path: string): Promise<{ line: number; text: string } | null> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(CHUNK)
    let line = 1
    for (let pos = 0; ; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos)
      if (bytesRead === 0) return null
      let text = buf.subarray(0, bytesRead).toString('utf8')
      if (pos === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1)
      pos += bytesRead
      const at = text.search(/\S/)
      if (at < 0) {
        line += count(text, '\n')
        continue
      }
      line += count(text.slice(0, at), '\n')
      const start = text.lastIndexOf('\n', at) + 1
      const end = text.indexOf('\n', at)
      return { line, text: text.slice(start, end < 0 ? undefined : end).replace(/\r$/, '') }
    }
  } finally {
    await fh.close()
  }
}

const CHUNK = 64 * 1024

function count(text: string, ch: string): number {
  let n = 0
  for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) n++
  return n
}
