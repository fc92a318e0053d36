import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fileSha256, streamFileLines } from '../../../src/main/io'

const dir = mkdtempSync(join(tmpdir(), 'arbiter-stream-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function linesOf(path: string, range: { start?: number; linesEnd?: number } = {}) {
  const lines: string[] = []
  const r = await streamFileLines(path, (l) => void lines.push(l), range)
  return { ...r, lines }
}

describe('streamFileLines over a part of the file (pass 1 on two threads)', () => {
  // A BOM, CRLF, multi-byte characters across the cut, and no final newline.
  const text = '\ufeff{"a":1}\r\nsecond ünïcödé line\n\nthird — ✓\nlast'
  const path = join(dir, 'parts.jsonl')
  writeFileSync(path, text)
  const bytes = Buffer.from(text)

  it('gives the whole file’s lines as the lines before a cut plus the lines from it, at every line start', async () => {
    const whole = await linesOf(path)
    expect(whole.lines).toEqual(['{"a":1}', 'second ünïcödé line', '', 'third — ✓', 'last'])
    const starts = [...bytes.keys()].filter((i) => i > 0 && bytes[i - 1] === 10)
    expect(starts.length).toBe(4)
    for (const cut of starts) {
      const head = await linesOf(path, { linesEnd: cut })
      const tail = await linesOf(path, { start: cut })
      expect([...head.lines, ...tail.lines]).toEqual(whole.lines)
      // The first part still hashes the whole file: the import's identity is the file's bytes.
      expect(head.sha256).toBe(whole.sha256)
      expect(head.bytes).toBe(bytes.length)
      // …and the part after the cut on its own, to compare with what the other thread read.
      expect(head.tailSha256).toBe(createHash('sha256').update(bytes.subarray(cut)).digest('hex'))
      expect(head.tailSha256).toBe(tail.sha256)
    }
    expect(whole.sha256).toBe((await fileSha256(path)).sha256)
    expect(whole.tailSha256).toBeNull()
  })

  it('drops a BOM only at the start of the file', async () => {
    const bomLater = join(dir, 'bom-later.jsonl')
    writeFileSync(bomLater, 'x\n\ufeffy\n')
    expect((await linesOf(bomLater, { start: 2 })).lines).toEqual(['\ufeffy'])
    expect((await linesOf(bomLater)).lines).toEqual(['x', '\ufeffy'])
  })
})
