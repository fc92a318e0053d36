import { existsSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import { DIALECT_OPTIONS, DIALECT_USAGE, dialectFrom } from '../args'
import { UsageError, type CliIo, type Command } from '../command'
import { cliActor, dbLocationOf, LazyStore } from '../../service/cli-support'
import { groupHeading, groupProblems } from '../../../shared/problem-groups'
import { formatProblem, runImport } from '../../service/import'
import { defaultDbLocation } from '../../paths'
import type { Actor } from '../../store'

const usage = `Usage: arbiter import <file> [--db PATH] [--skip-invalid] [--gold-as random|escalation] [--kind K] [CSV dialect flags] [--json]

Imports a trace file (JSONL, arbiter.trace/1), debate rounds (CSV, TSV or JSONL, one row per seat per
round: a header or first object naming round, seat and answer), a label-aggregation CSV (.csv, .tsv,
.txt), or a label file (JSONL, arbiter.labels/1) into the database. The whole file is validated before anything is
written; an invalid file imports nothing (every error on stderr as file:line: task T move M: rule —
message) and leaves the database exactly as it was. Re-importing the same file is a no-op.

  --db PATH          the database (default: ${defaultDbLocation()})
  --skip-invalid     import the valid lines and list the rejected ones on stderr
  --gold-as S        record the file's gold as labels of source S (random | escalation), reviewer
                     import:<file>; without it gold stays hidden truth (docs/engine.md §10)
  --kind K           traces | rounds | csv | labels (default: the rounds form by its header or first
                     object, else by extension, and for JSONL by the first line)
  --json             print the summary as JSON
${DIALECT_USAGE}

Exit 0 on success (or nothing to do), 2 on bad input, 1 on other failure.`

export const importCommand: Command = {
  name: 'import',
  summary: 'import traces, debate rounds, label-aggregation CSV or labels into the database',
  usage,
  run: (argv, io) => importFile(argv, io)
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: { db: { type: 'string' }, 'skip-invalid': { type: 'boolean' }, 'gold-as': { type: 'string' }, kind: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, ...DIALECT_OPTIONS },
      strict: true,
      allowPositionals: true
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

async function importFile(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv)
  if (values.help === true) {
    io.out(usage)
    return 0
  }
  if (positionals.length !== 1) throw new UsageError('give exactly one file to import')
  const [path] = positionals
  const goldAs = values['gold-as']
  if (goldAs !== undefined && goldAs !== 'random' && goldAs !== 'escalation') throw new UsageError(`--gold-as must be random or escalation, got "${goldAs}"`)
  const kind = values.kind ?? 'auto'
  if (!['auto', 'traces', 'rounds', 'csv', 'labels'].includes(kind)) throw new UsageError(`--kind must be traces, rounds, csv or labels, got "${kind}"`)
  const dialect = dialectFrom(values)
  for (const f of [path, ...(dialect.gold === undefined ? [] : [dialect.gold])]) {
    if (!existsSync(f) || !statSync(f).isFile()) throw new UsageError(`cannot read ${f}: no such file`)
  }
  const db = new LazyStore(dbLocationOf(values.db))
  // Writes happen only after the database is opened, and opening it names the reviewer.
  const actor: Actor = { reviewer: 'cli', sessionId: '', shell: 'cli' }
  const open = async () => {
    const store = await db.get()
    Object.assign(actor, await cliActor(store))
    return store
  }
  let refused = true
  try {
    const out = await runImport(
      open,
      { path, fileName: path, displayName: basename(path), kind: kind as 'auto', skipInvalid: values['skip-invalid'] === true, goldAs: goldAs ?? null, dialect, goldName: dialect.gold ?? null, target: { dbLocation: db.dbLocation, nativeBinding: null } },
      actor
    )
    for (const e of out.errors) io.err(formatProblem(e))
    if (out.errorCount > out.errors.length) io.err(`… and ${out.errorCount - out.errors.length} more`)
    // Every line above is kept for scripts; a rule broken many times is also summed up once.
    for (const g of groupProblems(out.errors)) if (g.kind === 'group') io.err(`${path}: ${groupHeading(g)}`)
    if (values.json === true) io.out(JSON.stringify(out))
    if (out.status === 'rejected') {
      if (values.json !== true) io.err(`${path}: ${out.errorCount} error(s); nothing was imported`)
      return 2
    }
    refused = false
    if (values.json !== true) {
      if (out.status === 'already-imported') io.out(`${path} was already imported (import ${out.importId}); nothing to do`)
      else io.out(`imported ${path}: ${out.tasks} tasks (${out.skipped} already present), ${out.moves} moves, ${out.seats} new seats, ${out.labels} labels; ${out.errorCount} lines rejected`)
    }
    return 0
  } finally {
    if (refused) await db.closeRemovingIfUnused()
    else await db.close()
  }
}
