/**
 * What the crash-kill and disk/read-only suites share: a seeded PRNG, a trace generator, and the
 * child workload (crash-child.ts) as a process the parent can start, talk to and kill.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const REPO = join(__dirname, '../..')
export const CHILD = join(__dirname, 'crash-child.ts')
export const CLI = join(REPO, 'src/main/cli/index.ts')
/** How every child runs: plain node with tsx's CommonJS hook, the way bench/import.ts does. */
export const NODE_ARGS = ['--require', 'tsx/cjs']

/** mulberry32: tiny, seedable, good enough to spread kill moments. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SEATS = ['A1', 'A2', 'A3', 'A4', 'A5']

/**
 * `tasks` council traces whose ids all start with `prefix` (so the parent can count exactly this
 * file's rows): three proposals, a challenge and a concession each, on the demo's seat ids.
 */
export function writeTraceFile(path: string, prefix: string, tasks: number): void {
  const lines: string[] = []
  for (let i = 0; i < tasks; i++) {
    const candidates = ['yes', 'no', 'unsure']
    const pick = (s: number) => candidates[(i + s) % 3]
    const seats = [SEATS[i % 5], SEATS[(i + 1) % 5], SEATS[(i + 2) % 5]]
    const moves = [
      { id: 'm1', round: 0, seat: seats[0], force: 'propose', answer: pick(0), confidence: 0.6, text: `Case ${i} reads as ${pick(0)}.` },
      { id: 'm2', round: 0, seat: seats[1], force: 'propose', answer: pick(1), text: 'The record says otherwise.' },
      { id: 'm3', round: 0, seat: seats[2], force: 'propose', answer: pick(0) },
      { id: 'm4', round: 1, seat: seats[1], force: 'challenge', target: 'm1', text: 'That skips the control.' },
      { id: 'm5', round: 1, seat: seats[2], force: 'concede', target: 'm2' }
    ]
    lines.push(JSON.stringify({ task: `${prefix}-${String(i).padStart(6, '0')}`, question: `Crash question ${i}?`, candidates, gold: pick(0), group: `G${i % 3}`, moves }))
  }
  writeFileSync(path, `${lines.join('\n')}\n`)
}

/** A running child and the lines it has printed so far (stdout is a pipe: written synchronously). */
export class Child {
  readonly lines: string[] = []
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  private stderr = ''
  private partial = ''
  private waiters: { match: (l: string) => boolean; resolve: (l: string) => void }[] = []

  constructor(
    readonly proc: ChildProcess,
    private readonly log: string | null = null
  ) {
    proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (this.partial + chunk).split('\n')
      this.partial = parts.pop() ?? ''
      for (const l of parts) {
        this.lines.push(l)
        this.waiters = this.waiters.filter((w) => (w.match(l) ? (w.resolve(l), false) : true))
      }
    })
    proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk))
    // 'close' (not 'exit'): every byte of stdout has been read by then.
    this.exited = new Promise((resolve) => proc.on('close', (code, signal) => resolve({ code, signal })))
  }

  /** With `log`, the child also writes every line to that file, synchronously (see crash-child.ts). */
  static start(args: string[], log: string | null = null): Child {
    const env = log === null ? process.env : { ...process.env, CRASH_LOG: log }
    return new Child(spawn(process.execPath, [...NODE_ARGS, CHILD, ...args], { cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'] }), log)
  }

  /** After the child has ended: every line it printed, even the ones a kill kept from stdout. */
  record(): string[] {
    if (this.log === null || !existsSync(this.log)) return this.lines
    return readFileSync(this.log, 'utf8').split('\n').filter((l) => l !== '')
  }

  get errors(): string {
    return this.stderr
  }

  /** Resolves with the first line (already printed or still to come) that starts with `prefix`; rejects if the child ends first. */
  line(prefix: string): Promise<string> {
    const seen = this.lines.find((l) => l.startsWith(prefix))
    if (seen !== undefined) return Promise.resolve(seen)
    return new Promise((resolve, reject) => {
      this.waiters.push({ match: (l) => l.startsWith(prefix), resolve })
      void this.exited.then((e) => reject(new Error(`child ended (${e.code ?? e.signal}) before "${prefix}": ${this.stderr}`)))
    })
  }

  go(): void {
    this.proc.stdin?.end('go\n')
  }

  /** One line to the child, keeping its stdin open (the import chain waits for two). */
  send(line: string): void {
    this.proc.stdin?.write(`${line}\n`)
  }

  /** No more lines: a child waiting for one ends. */
  endInput(): void {
    this.proc.stdin?.end()
  }

  kill(): void {
    this.proc.kill('SIGKILL')
  }
}
