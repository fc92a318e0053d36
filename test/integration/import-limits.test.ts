/**
 * The limits a user can see (docs/formats.md, "Limits"): each is enforced at import, by
 * `arbiter import`, for trace files, the debate-rounds form and the label-aggregation CSV alike,
 * with the usual error — file, line, task, rule — and nothing written (a refused import leaves no
 * database file). And the limits admit what they promise: a task of more than 1 MB of text.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importCommand } from '../../src/main/cli/commands/import'
import { openStore } from '../../src/main/store'
import { MAX_CANDIDATES, MAX_MOVE_TEXT, MAX_MOVES_PER_TASK, MAX_QUESTION_TEXT } from '../../src/shared/limits'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-limits-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function importFile(name: string, text: string): Promise<{ code: number; err: string; db: string; file: string }> {
  const file = join(dir, name)
  writeFileSync(file, text)
  const db = join(dir, 'arbiter.db')
  let err = ''
  const code = await importCommand.run([file, '--db', db], { out: () => undefined, err: (t) => (err += `${t}\n`) })
  return { code, err, db, file }
}

const OK_LINE = JSON.stringify({ task: 'ok', candidates: ['a', 'b'], moves: [{ id: 'm1', round: 0, seat: 'A', force: 'propose', answer: 'a' }] })
const traceFile = (bad: object): string => `${OK_LINE}\n${JSON.stringify({ task: 'bad', ...bad })}\n`
const propose = (i: number, round: number, seat: string, answer = 'c0') => ({ id: `m${i}`, round, seat, force: 'propose', answer })
const cands = (k: number): string[] => Array.from({ length: k }, (_, i) => `c${i}`)
/** 128 seats × 128 rounds × 31 candidates: inside every count limit, but 8 MB of tallies for a 9 kB task. */
const diagonal = Array.from({ length: 128 }, (_, i) => propose(i, i, `s${i}`, `c${i % 31}`))

const ROUNDS_HEADER = 'task,round,seat,answer,candidates,question'
const roundsFile = (rows: string[]): string => `${ROUNDS_HEADER}\nok,0,A,a,a|b,\n${rows.join('\n')}\n`

const CASES: { rule: string; form: string; name: string; text: () => string; line: number; task: string }[] = [
  { rule: 'question-too-long', form: 'trace', name: 't.jsonl', line: 2, task: 'bad', text: () => traceFile({ question: 'q'.repeat(MAX_QUESTION_TEXT + 1), candidates: ['c0', 'c1'], moves: [propose(1, 0, 'A')] }) },
  { rule: 'too-many-candidates', form: 'trace', name: 't.jsonl', line: 2, task: 'bad', text: () => traceFile({ candidates: cands(MAX_CANDIDATES + 1), moves: [propose(1, 0, 'A')] }) },
  { rule: 'too-many-moves', form: 'trace', name: 't.jsonl', line: 2, task: 'bad', text: () => traceFile({ candidates: ['c0', 'c1'], moves: Array.from({ length: MAX_MOVES_PER_TASK + 1 }, (_, i) => ({ id: `${i}`, round: 0, seat: 'A', force: 'abstain' })) }) },
  { rule: 'task-too-large', form: 'trace', name: 't.jsonl', line: 2, task: 'bad', text: () => traceFile({ candidates: cands(31), moves: diagonal }) },
  { rule: 'question-too-long', form: 'debate rounds', name: 'r.csv', line: 3, task: 'bad', text: () => roundsFile([`bad,0,A,c0,c0|c1,${'q'.repeat(MAX_QUESTION_TEXT + 1)}`]) },
  { rule: 'too-many-candidates', form: 'debate rounds', name: 'r.csv', line: 3, task: 'bad', text: () => roundsFile([`bad,0,A,c0,${cands(MAX_CANDIDATES + 1).join('|')},`]) },
  { rule: 'task-too-large', form: 'debate rounds', name: 'r.csv', line: 3, task: 'bad', text: () => roundsFile(Array.from({ length: 128 }, (_, i) => `bad,${i},s${i},c${i % 31},,`)) },
  // Every label of the file is a candidate of every task: a one-row task cannot pay for 40 of them.
  { rule: 'task-too-large', form: 'label CSV', name: 'l.csv', line: 42, task: 'bad', text: () => `task,worker,label\n${Array.from({ length: 40 }, (_, i) => `ok,w${i % 3},label-${i}`).join('\n')}\nbad,w1,label-0\n` },
  { rule: 'too-many-moves', form: 'label CSV', name: 'l.csv', line: 4, task: 'bad', text: () => `task,worker,label\nok,w1,yes\nok,w2,no\n${'bad,w1,yes\n'.repeat(MAX_MOVES_PER_TASK + 1)}` }
]

describe('each limit is enforced at import: file, line, task and rule; nothing written', () => {
  for (const c of CASES) {
    it(`${c.form}: ${c.rule}`, async () => {
      const r = await importFile(c.name, c.text())
      expect(r.code).not.toBe(0)
      // `file:line: task T: rule — message`, as every reader error (formatReadError).
      expect(r.err).toContain(`${c.name}:${c.line}: task ${c.task}: ${c.rule} — `)
      // Only the bad task is named: the valid one beside it would be imported by --skip-invalid.
      expect(r.err).not.toContain('task ok')
      expect(existsSync(r.db)).toBe(false)
    }, 30_000)
  }
})

describe('the limits admit a task of more than 1 MB of text', () => {
  const longest = (n: number, seed: string): string => seed.repeat(Math.ceil(n / seed.length)).slice(0, n)

  it('a trace line: the longest question and a move of the longest text with its confidence', async () => {
    const question = longest(MAX_QUESTION_TEXT, 'Does X reduce Y? ')
    const confidence = { p: 0.8 }
    const text = longest(MAX_MOVE_TEXT - JSON.stringify(confidence).length, 'Because the trials say so. ')
    const line = JSON.stringify({ task: 'big', question, candidates: ['yes', 'no'], moves: [{ id: 'm1', round: 0, seat: 'A', force: 'propose', answer: 'yes', confidence, text }, propose(2, 1, 'B', 'no')] })
    expect(Buffer.byteLength(line)).toBeGreaterThan(2_000_000)
    const r = await importFile('big.jsonl', `${line}\n`)
    expect([r.code, r.err]).toEqual([0, ''])
    const store = await openStore(r.db)
    try {
      const d = await store.taskDetail('big')
      expect(d.task.question).toBe(question)
      expect(d.task.moves[0].text).toBe(text)
      expect(d.task.moves[0].confidence).toEqual(confidence)
    } finally {
      await store.close()
    }
  }, 60_000)

  it('the debate-rounds form: a row with the longest question and text', async () => {
    const question = longest(MAX_QUESTION_TEXT, 'How many apples? ')
    const text = longest(MAX_MOVE_TEXT, 'Three, since two and one make three. ')
    const r = await importFile('big.csv', `task,round,seat,answer,question,text\nbig,0,A,3,"${question}","${text}"\nbig,1,A,3,"${question}",ok\n`)
    expect([r.code, r.err]).toEqual([0, ''])
    const store = await openStore(r.db)
    try {
      const d = await store.taskDetail('big')
      expect(d.task.question?.length).toBe(MAX_QUESTION_TEXT)
      expect(d.task.moves[0].text?.length).toBe(MAX_MOVE_TEXT)
    } finally {
      await store.close()
    }
  }, 60_000)
})
