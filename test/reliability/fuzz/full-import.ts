/**
 * One full import through `runImport` into the shared fuzz database, with the no-partial-write
 * invariant: a rejected, already-imported or failed import leaves every visible count and the last
 * audit row unchanged; an accepted one adds exactly the valid tasks of the file that the database
 * did not have (with their moves, candidates and --gold-as labels) or exactly the valid labels.
 * The expectation comes from the in-memory readers; the import streams the file from disk, so the
 * two decoders are compared too.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readLabelCsvText, readLabelsText, readTraceText, type CsvDialect } from '../../../src/main/io'
import { runImport, type ImportOutcome } from '../../../src/main/service/import'
import type { Actor, LabelSource, Store } from '../../../src/main/store'
import type { Trace } from '../../../src/shared/trace'
import { check, checkClearErrors } from './reader-checks'

export const FUZZ_ACTOR: Actor = { reviewer: 'fuzz', sessionId: 'fuzz-session', shell: 'cli' }
/** A hang bound for one import (a case of a few MB imports in well under a second). */
const CASE_LIMIT_MS = 60_000

export interface FullCase {
  kind: 'traces' | 'csv' | 'labels'
  fileName: string
  bytes: Buffer
  dialect: CsvDialect
  gold: Buffer | null
  skipInvalid: boolean
  goldAs: LabelSource | null
}

export type FullResult = { status: ImportOutcome['status'] | 'failed' }

async function snapshot(store: Store): Promise<string> {
  const [counts, tail] = await Promise.all([store.counts(), store.auditTail(1)])
  return JSON.stringify({ counts, audit: tail })
}

function bounded<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${CASE_LIMIT_MS} ms (a hang)`)), CASE_LIMIT_MS)
  })
  return Promise.race([p, limit]).finally(() => clearTimeout(timer))
}

/** What the file holds that is valid, read the way a reader reads it. */
function expected(c: FullCase, goldName: string): { traces: Trace[]; fileLevel: boolean; clean: boolean; labels: ReturnType<typeof readLabelsText> | null } {
  const text = c.bytes.toString('utf8')
  if (c.kind === 'traces') {
    const r = readTraceText(text, c.fileName)
    return { traces: r.traces, fileLevel: false, clean: r.errors.length === 0, labels: null }
  }
  if (c.kind === 'csv') {
    const r = readLabelCsvText({ text, file: c.fileName }, c.dialect, c.gold === null ? undefined : { text: c.gold.toString('utf8'), file: goldName })
    return { traces: r.traces, fileLevel: r.errors.some((e) => e.rule === 'too-few-candidates' || e.rule === 'too-many-labels' || e.rule === 'bad-quote'), clean: r.errors.length === 0, labels: null }
  }
  const r = readLabelsText(text, c.fileName)
  return { traces: [], fileLevel: false, clean: r.errors.length === 0, labels: r }
}

export async function runFullCase(store: Store, dir: string, n: number, c: FullCase): Promise<FullResult> {
  const path = join(dir, `case-${n}-${c.fileName}`)
  writeFileSync(path, c.bytes)
  const goldName = `case-${n}-gold-${c.fileName}`
  const goldPath = join(dir, goldName)
  if (c.gold !== null) writeFileSync(goldPath, c.gold)
  const dialect: CsvDialect = c.gold === null ? { ...c.dialect, gold: undefined } : { ...c.dialect, gold: goldPath }

  const want = expected(c, goldName)
  const existing = new Map((await store.existingTasks(want.traces.map((t) => t.task).slice(0, 5000))).map((e) => [e.taskId, e]))
  const labelTasks = new Map<string, string[]>()
  if (want.labels !== null) {
    const ids = [...new Set(want.labels.labels.map((l) => l.task))]
    for (const e of await store.existingTasks(ids)) if (e.state === 'published') labelTasks.set(e.taskId, e.candidates)
  }
  const before = await snapshot(store)
  const countsBefore = await store.counts()

  let outcome: ImportOutcome
  try {
    const req = { path, fileName: c.fileName, displayName: c.fileName, kind: c.kind, skipInvalid: c.skipInvalid, goldAs: c.goldAs, dialect, goldName: c.gold === null ? null : goldName, target: null }
    outcome = await bounded(runImport(store, req, FUZZ_ACTOR), c.fileName)
  } catch (e) {
    // A failure must be the service's typed kind (a StoreError or a coded conflict), with a message, and write nothing.
    const err = e as { message?: unknown; code?: unknown }
    check(e instanceof Error && typeof err.code === 'string' && String(err.message).length > 0, `untyped failure: ${String(e)}`)
    check((await snapshot(store)) === before, 'a failed import changed the database')
    return { status: 'failed' }
  }

  const after = await snapshot(store)
  if (outcome.status !== 'imported') {
    check(after === before, `a ${outcome.status} import changed the database`)
    if (outcome.status === 'rejected') {
      check(outcome.errorCount > 0 && outcome.errors.length > 0, 'rejected without errors')
      checkClearErrors(outcome.errors, new Map([[c.fileName, c.bytes.length + 1], [goldName, (c.gold?.length ?? 0) + 1]]))
    }
    return { status: outcome.status }
  }

  const countsAfter = await store.counts()
  if (want.labels !== null) {
    const rows = want.labels.labels.filter((l) => labelTasks.get(l.task)?.includes(l.label) === true)
    check(c.skipInvalid || (want.clean && rows.length === want.labels.labels.length), 'an invalid label file was imported without --skip-invalid')
    check(outcome.labels === rows.length, `imported ${outcome.labels} labels, the file holds ${rows.length} valid ones`)
    check(countsAfter.labels === countsBefore.labels + rows.length, `live labels ${countsBefore.labels} → ${countsAfter.labels}, expected +${rows.length}`)
    check(countsAfter.tasks === countsBefore.tasks && countsAfter.moves === countsBefore.moves, `a label import changed tasks or moves: ${JSON.stringify(countsBefore)} → ${JSON.stringify(countsAfter)}`)
    return { status: 'imported' }
  }

  check(c.skipInvalid || want.clean, 'an invalid file was imported without --skip-invalid')
  check(!want.fileLevel, 'a file with a file-level error was imported')
  const fresh = want.traces.filter((t) => !existing.has(t.task))
  const moves = fresh.reduce((s, t) => s + t.moves.length, 0)
  const golds = c.goldAs === null ? 0 : fresh.filter((t) => t.gold != null).length
  check(outcome.tasks === fresh.length, `imported ${outcome.tasks} tasks, the file holds ${fresh.length} new valid ones`)
  check(countsAfter.tasks === countsBefore.tasks + fresh.length, `visible tasks ${countsBefore.tasks} → ${countsAfter.tasks}, expected +${fresh.length}`)
  check(countsAfter.moves === countsBefore.moves + moves, `visible moves ${countsBefore.moves} → ${countsAfter.moves}, expected +${moves}`)
  check(countsAfter.labels === countsBefore.labels + golds, `labels ${countsBefore.labels} → ${countsAfter.labels}, expected +${golds} (--gold-as)`)
  const stored = new Map((await store.existingTasks(fresh.map((t) => t.task))).map((e) => [e.taskId, e]))
  for (const t of fresh) {
    const s = stored.get(t.task)
    check(s !== undefined && s.state === 'published', `task ${JSON.stringify(t.task)} is not visible after its import`)
    check(JSON.stringify(s.candidates) === JSON.stringify(t.candidates), `task ${t.task}: stored candidates differ`)
  }
  return { status: 'imported' }
}
