import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { computeAudit } from '../../service/audit/compute'
import { renderReport } from '../../service/audit/report'
import { cliActor, dbLocationOf, LazyStore, requireDatabase } from '../../service/cli-support'
import { shownLocation } from '../../store'
import { readEngineSettings } from '../../service/engine-settings'
import { defaultDbLocation } from '../../paths'
import { parseFlags } from '../args'
import { UsageError, type Command } from '../command'

const usage = `Usage: arbiter report [--db PATH] --out FILE.html [--json]

Writes the audit as one self-contained HTML file (inline CSS and SVG plots, no script, no
external resource): the methods scored by nested CV with their reliability diagrams, the baselines
majority, majority-final and best-seat as references; act-or-defer over 10 seeded 50/50 splits of the random labels at
the current budget and the risk–automation frontier (β sweep); each seat's reliability, weight,
evidence, drift and confusion heatmap; labels by reviewer and their agreement (Cohen's κ per
pair, Fleiss' κ overall). The same figures as the console's Audit screen.

  --db PATH     the database (default: ${defaultDbLocation()})
  --out FILE    the HTML file to write (written whole or not at all)
  --json        print {"out", "bytes", "fit", "computedAt"} instead of a sentence

Exit 0 on success, 2 on bad input (no --out, no database, a missing output folder), 1 on other failure.`

export const reportCommand: Command = {
  name: 'report',
  summary: 'write the audit (methods, act-or-defer frontier, seats, reviewers, agreement) as one self-contained HTML file',
  usage,
  async run(argv, io) {
    const values = parseFlags(argv, { db: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' } })
    if (values.help === true) {
      io.out(usage)
      return 0
    }
    if (values.out === undefined || values.out.trim() === '') throw new UsageError('say where to write the report: --out FILE.html')
    const out = resolve(values.out)
    // Checked before the seconds of computing, so a typo fails at once.
    const folder = dirname(out)
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`--out: there is no folder ${folder}`)
    if (existsSync(out) && statSync(out).isDirectory()) throw new UsageError(`--out: ${out} is a folder`)
    const dbLocation = dbLocationOf(values.db)
    requireDatabase(dbLocation)
    const db = new LazyStore(dbLocation)
    try {
      const store = await db.get()
      const summary = await computeAudit(store, await readEngineSettings(store), await cliActor(store))
      const html = renderReport(summary, shownLocation(dbLocation))
      const tmp = `${out}.partial-${process.pid}`
      try {
        writeFileSync(tmp, html, 'utf8')
        renameSync(tmp, out)
      } finally {
        rmSync(tmp, { force: true })
      }
      const bytes = Buffer.byteLength(html, 'utf8')
      if (values.json === true) io.out(JSON.stringify({ out, bytes, fit: summary.fitId, computedAt: summary.computedAt }))
      else io.err(`wrote the audit report to ${out} (${bytes} bytes)`)
      return 0
    } finally {
      await db.close()
    }
  }
}
