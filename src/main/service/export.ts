/**
 * `export decisions|labels|flags` (docs/formats.md, flags included: `arbiter.flags/1`): exactly the rows of the filter the queue uses, streamed
 * page by page in task-id order, to a file or into a string. Writing to a file goes to a temp
 * name first and is renamed at the end, so a failed export never leaves a half file behind.
 */
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { basename } from 'node:path'
import type { CallContext, ExportKind, ExportResult, TaskFilterArgs } from '../../shared/api'
import { decisionsWriter, flagsWriter, labelsWriter, type DecisionExportRow, type ExportFormat } from '../io'
import type { SealedViewer, Store, TaskRow } from '../store'
import { maskDrawnRows } from './drawn'
import { maskFlags, maskQueueRows, maskRecentLabels, sealedViewerOf } from './sealed'

const PAGE = 5000

export function decisionRow(r: TaskRow): DecisionExportRow {
  const human = r.state === 'human'
  return {
    task: r.taskId,
    decision: r.state,
    spotCheck: r.spotCheck,
    answer: r.answer,
    method: r.method,
    posterior: r.posterior,
    stopRound: human ? null : r.stopRound,
    gap: human ? null : r.gap,
    bound: human ? null : r.bound,
    label: r.label?.label ?? null,
    labelSource: r.label?.source ?? null,
    reviewer: r.label?.reviewer ?? null,
    decidedAt: human ? (r.label?.at ?? null) : r.decidedAt,
    fit: r.fitId
  }
}

/**
 * Who an export is for: a console caller sees it under the sealed rule — the label-based
 * filters skip tasks sealed for them, a sealed task's decision row shows no label and no answer, and
 * others' labels of it are left out — exactly as their queue shows it. null: the CLI, which holds
 * the database itself.
 */
type Reader = { ctx: CallContext; viewer: SealedViewer | null }

/** Every line of the export, in order (a generator, so nothing is held whole). */
async function* lines(store: Store, what: ExportKind, filter: TaskFilterArgs, format: ExportFormat, count: { rows: number }, reader: Reader | null): AsyncGenerator<string> {
  let after: string | null = null
  const viewer = reader?.viewer ?? null
  const sealedCaller = reader !== null && viewer !== null ? reader.ctx : null
  const drawnFor = reader?.ctx.reviewer ?? null
  if (what === 'decisions') {
    const w = decisionsWriter(format)
    yield w.header()
    for (;;) {
      const found: TaskRow[] = await store.filteredTasks(filter, after, PAGE, viewer, drawnFor)
      const unsealed = sealedCaller === null ? found : await maskQueueRows(store, sealedCaller, found)
      // A task drawn for the caller blind shows no verdict, as in their queue (drawn.ts).
      const page = reader === null ? unsealed : await maskDrawnRows(store, reader.ctx, unsealed)
      for (const r of page) {
        count.rows++
        yield w.row(decisionRow(r))
      }
      if (page.length < PAGE) return
      after = page[page.length - 1].taskId
    }
  }
  if (what === 'flags') {
    const w = flagsWriter(format)
    yield w.header()
    for (;;) {
      const { rows: found, lastTaskId } = await store.filteredFlags(filter, after, PAGE, viewer, drawnFor)
      // Others' reasons on a task sealed or drawn blind for the caller are left out, as in task.detail.
      const rows = reader === null ? found : await maskFlags(store, reader.ctx, found)
      for (const f of rows) {
        count.rows++
        yield w.row({ task: f.taskId, reviewer: f.reviewer, reason: f.reason, at: f.at })
      }
      if (lastTaskId === null) return
      after = lastTaskId
    }
  }
  const w = labelsWriter(format)
  yield w.header()
  for (;;) {
    const { rows: found, lastTaskId } = await store.filteredLabels(filter, after, PAGE, viewer, drawnFor)
    const rows = sealedCaller === null ? found : await maskRecentLabels(store, sealedCaller, found)
    for (const l of rows) {
      count.rows++
      yield w.row({ task: l.taskId, label: l.label as string, source: l.source, reviewer: l.reviewer, at: l.at, note: l.note })
    }
    if (lastTaskId === null) return
    after = lastTaskId
  }
}

/** `ctx`: the console caller the export is for (the sealed rule applies); null: the CLI. */
export async function runExport(store: Store, what: ExportKind, filter: TaskFilterArgs, format: ExportFormat, path: string | null, ctx: CallContext | null = null): Promise<ExportResult> {
  const count = { rows: 0 }
  const reader = ctx === null ? null : { ctx, viewer: await sealedViewerOf(store, ctx) }
  const fileName = path === null ? `arbiter-${what}.${format}` : basename(path)
  if (path === null) {
    let content = ''
    for await (const l of lines(store, what, filter, format, count, reader)) content += l
    return { what, format, rows: count.rows, fileName, path: null, content }
  }
  const tmp = `${path}.partial-${process.pid}`
  const out = createWriteStream(tmp, { encoding: 'utf8' })
  const failed = new Promise<never>((_, reject) => out.once('error', reject))
  failed.catch(() => undefined) // observed below; never an unhandled rejection
  try {
    for await (const l of lines(store, what, filter, format, count, reader)) {
      if (!out.write(l)) await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), failed])
    }
    await Promise.race([new Promise<void>((resolve) => out.end(() => resolve())), failed])
    await rename(tmp, path)
  } catch (e) {
    out.destroy()
    await rm(tmp, { force: true })
    throw e
  }
  return { what, format, rows: count.rows, fileName, path, content: null }
}
