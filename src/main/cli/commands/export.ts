import type { TaskFilterArgs } from '../../../shared/api'
import { EXPORT_FORMATS, EXPORT_KINDS, type ExportKind } from '../../../shared/contract/export'
import { LABEL_SOURCES, TASK_STATES } from '../../../shared/vocabularies'
import { dbLocationOf, LazyStore, requireDatabase } from '../../service/cli-support'
import { runExport } from '../../service/export'
import { defaultDbLocation } from '../../paths'
import { UsageError, type Command } from '../command'
import { parseArgs } from 'node:util'

const usage = `Usage: arbiter export decisions|labels|flags [--db PATH] [--format jsonl|csv] [--out FILE]
                      [--group G] [--decision act|defer|human] [--label-source random|escalation]
                      [--search TEXT] [--seat S] [--candidate C] [--spot-check] [--flagged]

Exports exactly the rows of the filter (the console's export uses its queue's filter), in task-id
order: decisions (arbiter.decisions/1: task, decision, spotCheck, answer, method, posterior, stopRound,
gap, bound, label, labelSource, reviewer, decidedAt, fit) or the live labels of the filtered tasks
(arbiter.labels/1), or the flags of the filtered tasks (arbiter.flags/1: task, reviewer, reason, at —
a reviewer's "can't decide", not a label). In CSV, object and array cells are JSON-encoded. Without
--out, to stdout.

  --db PATH            the database (default: ${defaultDbLocation()})
  --format F           jsonl (default) | csv
  --out FILE           write to FILE (written whole or not at all)
  --group G            tasks of this group
  --decision D         act | defer | human (a task with a live label is human)
  --label-source S     tasks whose label has this source
  --search TEXT        words of the question (prefix match), or the exact task id
  --seat S             tasks in which this seat moved
  --candidate C        tasks whose answer (acted, best guess or label) is C
  --spot-check         spot-checked tasks only
  --flagged            flagged tasks only

Exit 0 on success, 2 on bad input, 1 on other failure.`

const ENUMS = { decision: TASK_STATES, 'label-source': LABEL_SOURCES, format: EXPORT_FORMATS } as const

function oneOf<K extends keyof typeof ENUMS>(name: K, v: string | undefined): (typeof ENUMS)[K][number] | null {
  if (v === undefined) return null
  if (!(ENUMS[name] as readonly string[]).includes(v)) throw new UsageError(`--${name} must be one of ${ENUMS[name].join(', ')}; got "${v}"`)
  return v as (typeof ENUMS)[K][number]
}

const isExportKind = (v: string | undefined): v is ExportKind => (EXPORT_KINDS as readonly (string | undefined)[]).includes(v)

export const exportCommand: Command = {
  name: 'export',
  summary: 'export decisions, labels or flags, exactly the rows of a filter (JSONL or CSV)',
  usage,
  async run(argv, io) {
    let parsed
    try {
      parsed = parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: {
          db: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, group: { type: 'string' }, decision: { type: 'string' },
          'label-source': { type: 'string' }, search: { type: 'string' }, seat: { type: 'string' }, candidate: { type: 'string' },
          'spot-check': { type: 'boolean' }, flagged: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }
        }
      })
    } catch (e) {
      throw new UsageError((e as Error).message)
    }
    const { values, positionals } = parsed
    if (values.help === true) {
      io.out(usage)
      return 0
    }
    const what = positionals[0]
    if (positionals.length !== 1 || !isExportKind(what)) throw new UsageError(`say what to export: ${EXPORT_KINDS.join(', ')}`)
    const filter: TaskFilterArgs = {
      decision: oneOf('decision', values.decision),
      group: values.group ?? null,
      seat: values.seat ?? null,
      candidate: values.candidate ?? null,
      labelSource: oneOf('label-source', values['label-source']),
      spotCheck: values['spot-check'] === true ? true : null,
      search: values.search ?? null,
      flagged: values.flagged === true ? true : null
    }
    const format = oneOf('format', values.format) ?? 'jsonl'
    const dbLocation = dbLocationOf(values.db)
    requireDatabase(dbLocation)
    const db = new LazyStore(dbLocation)
    try {
      const res = await runExport(await db.get(), what, filter, format, values.out ?? null)
      if (res.content !== null) process.stdout.write(res.content)
      else io.err(`wrote ${res.rows} ${what} rows to ${res.path}`)
      return 0
    } finally {
      await db.close()
    }
  }
}
