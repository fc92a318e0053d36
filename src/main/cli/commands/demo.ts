import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { dbLocationOf } from '../../service/cli-support'
import { createDemoDatabase, DEMO_ESCALATIONS, DEMO_RANDOM_LABELS, DEMO_TASKS } from '../../service/demo'
import { defaultDbLocation, makeDataFolder } from '../../paths'
import { isServerLocation, passwordFree } from '../../store'
import { intFlag, parseFlags } from '../args'
import { UsageError, type Command } from '../command'

const usage = `Usage: arbiter demo [--db PATH] [--seed N] [--json]

Creates a database with a simulated council, fitted and decided, so every screen of the console has
data: ${DEMO_TASKS} seeded tasks in three groups (claims K = 2, trivia K = 3, arithmetic K = 4), five
seats with different reliabilities, a persistent adversary (A4) and a sleeper that turns hostile late
(A5), 3–4 rounds of proposals, challenges and concessions with debate text. ${DEMO_RANDOM_LABELS} tasks are
labeled from a uniform draw (random labels, the calibration set), then ${DEMO_ESCALATIONS} from the top of the
review queue (escalations); gold stays hidden on every other task. The database is marked as a demo
(the console shows a badge and offers to start empty). \`serve\` and the desktop app create it on
their first launch.

  --db PATH   where to create it (default: ${defaultDbLocation()}); it must not exist yet
  --seed N    the simulator's seed (default 0)
  --json      print the summary as JSON

Exit 0 on success, 2 when the database already exists, 1 on other failure.`

export const demoCommand: Command = {
  name: 'demo',
  summary: 'create a demo database: a simulated council, fitted and decided',
  usage,
  async run(argv, io) {
    const values = parseFlags(argv, { db: { type: 'string' }, seed: { type: 'string' }, json: { type: 'boolean' } })
    if (values.help === true) {
      io.out(usage)
      return 0
    }
    const dbLocation = dbLocationOf(values.db)
    const seed = intFlag('seed', values.seed, 0, 0)
    if (existsSync(dbLocation)) throw new UsageError(`${dbLocation} already exists; the demo is only written to a new database (give another --db)`)
    if (!isServerLocation(dbLocation)) makeDataFolder(dirname(dbLocation))
    const json = values.json === true
    const report = await createDemoDatabase(dbLocation, { seed, log: json ? undefined : (l) => io.err(l) })
    const shown = isServerLocation(dbLocation) ? passwordFree(dbLocation) : dbLocation
    if (json) io.out(JSON.stringify({ db: shown, ...report }))
    else io.out(`demo database ${shown}: ${report.tasks} tasks, ${report.randomLabels} random and ${report.escalations} escalation labels; fit ${report.fitId}: ${report.acted} acted, ${report.deferred} deferred. Open it with: npm run serve -- --db ${shown}`)
    return 0
  }
}
