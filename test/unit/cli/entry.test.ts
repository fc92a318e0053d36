import { describe, it, expect } from 'vitest'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

// The real entry point, as a user runs it (`npm run -s arbiter -- posterior …` is tsx on this file).
const ROOT = join(__dirname, '../../..')
const IO = join(ROOT, 'test/fixtures/io')
const arbiter = (...argv: string[]) =>
  spawnSync('npx', ['tsx', 'src/main/cli/index.ts', ...argv], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })

describe('arbiter posterior through the entry point', () => {
  it('prints one JSON line per task on stdout and exits 0', () => {
    const r = arbiter('posterior', '--traces', join(IO, 'traces.jsonl'), '--calibration', join(IO, 'calibration.jsonl'), '--method', 'majority')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines.map((l) => (JSON.parse(l) as { task: string }).task)).toEqual(['q-0', 'q-1', 'q-2', 'q-3', 'q-4'])
  })

  it('exits 2 with file:line: rule on stderr for a bad file, and nothing on stdout', () => {
    const bad = join(IO, 'invalid-trace', 'unknown-target.jsonl')
    const r = arbiter('posterior', '--traces', bad, '--calibration', join(IO, 'calibration.jsonl'))
    expect(r.status).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(`${bad}:3: task bad move m2: unknown-target — `)
  })

  it('exits 2 on an unknown flag', () => {
    const r = arbiter('evaluate', '--traces', join(IO, 'calibration.jsonl'), '--nope')
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/nope/)
  })
})
