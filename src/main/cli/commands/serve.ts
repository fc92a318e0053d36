import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { startConsoleServer, type ConsoleServer } from '../../console-server'
import { checkReviewerNames } from '../../host/web-identity'
import { defaultDbLocation, makeDataFolder } from '../../paths'
import { dbLocationOf } from '../../service/cli-support'
import { isServerLocation, passwordFree } from '../../store'
import { UsageError, type Command } from '../command'
import { DEFAULT_SERVE_PORT, preferredServePort, rememberServePort } from '../serve-port'

const usage = `Usage: arbiter serve [--db PATH] [--port N] [--reviewer NAME]... [--reviewers FILE] [--adjudicator NAME]...

Serves the review console in a browser, on 127.0.0.1 only, and prints the URL to open
(it carries a per-launch token; opening it sets a session cookie). Stop with Ctrl+C.

  --db PATH          the database file, or a postgres:// URL (default: ${defaultDbLocation()}; ARBITER_HOME moves the folder)
  --port N           the port (default: the one the last serve on this machine used, first ${DEFAULT_SERVE_PORT};
                     when another program holds it, a free one, said on stdout and used next time)
  --reviewer NAME    issue a login for this reviewer (repeat for each one): one URL per reviewer is
                     printed, and every label and audit entry made through it carries NAME, which
                     Settings cannot change. Without it: one URL, reviewer name from Settings.
  --reviewers FILE   the same, one reviewer name a line (blank lines and lines starting with # skipped)
  --adjudicator NAME name this reviewer (one of the logins) an adjudicator at start (repeat for more):
                     with logins, only a named adjudicator rules, imports gold as random and changes
                     the team settings; none is named until you do

Tokens are random per launch and never written anywhere: after a restart, hand out the new URLs.`

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the review console in a browser (127.0.0.1 only)',
  usage,
  async run(argv, io) {
    const { values } = parse(argv)
    const dbLocation = dbLocationOf(values.db)
    const port = values.port === undefined ? null : Number(values.port)
    if (port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError(`--port must be an integer from 0 to 65535, got ${values.port}`)
    const reviewers = reviewersOf(values.reviewer ?? [], values.reviewers)
    if (!isServerLocation(dbLocation)) makeDataFolder(dirname(dbLocation))

    const adjudicators = values.adjudicator ?? []
    if (adjudicators.length > 0 && reviewers.length === 0) throw new UsageError('--adjudicator needs per-reviewer logins (--reviewer or --reviewers)')
    const server = await startServe({ dbLocation, port, reviewers, adjudicators }, io)

    // The first SIGINT or SIGTERM closes the server cleanly. The handlers stay while it closes: a
    // signal delivered twice (tsx relays it to its child, a process manager repeats it) would
    // otherwise kill the process mid-close; a second Ctrl-C still quits at once.
    await new Promise<void>((done) => {
      let stopping = false
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopping && signal === 'SIGINT') process.exit(130)
        stopping = true
        done()
      }
      process.on('SIGINT', onSignal)
      process.on('SIGTERM', onSignal)
    })
    await server.close()
    return 0
  }
}

/**
 * Starts the server and prints where: on `--port` exactly, or (without it) on the port this
 * machine's last `serve` used (serve-port.ts), falling back to a free one, said on stdout, when
 * another program holds it.
 */
export async function startServe(
  opts: { dbLocation: string; port: number | null; reviewers: string[]; adjudicators?: string[] },
  io: { out(line: string): void },
  env: NodeJS.ProcessEnv = process.env
): Promise<ConsoleServer> {
  const { dbLocation, reviewers } = opts
  const chosen = opts.port === null
  const server = await startConsoleServer({ dbLocation, port: opts.port ?? preferredServePort(env), portFallback: chosen, reviewers, adjudicators: opts.adjudicators ?? [] })
  if (chosen) rememberServePort(server.host.port, env)
  io.out(`Arbiter console for ${isServerLocation(dbLocation) ? passwordFree(dbLocation) : dbLocation}`)
  if (server.host.busyPort !== null) {
    io.out(`Port ${server.host.busyPort} is in use by another program; listening on ${server.host.port} instead (the next start tries ${server.host.port} first).`)
  }
  if (reviewers.length === 0) io.out(`Open: ${server.host.loginUrl}`)
  else {
    io.out('One login URL per reviewer (send each reviewer only their own):')
    for (const l of server.host.logins) io.out(`${l.reviewer}: ${l.url}`)
  }
  return server
}

/** The names of --reviewer and of the --reviewers file, in that order, checked. */
export function reviewersOf(flags: readonly string[], file: string | undefined): string[] {
  const names = [...flags]
  if (file !== undefined) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      throw new UsageError(`cannot read --reviewers ${file}: ${(error as Error).message}`)
    }
    for (const line of text.split(/\r?\n/)) if (line.trim() !== '' && !line.trim().startsWith('#')) names.push(line)
    if (names.length === flags.length) throw new UsageError(`--reviewers ${file} names no reviewer`)
  }
  try {
    return checkReviewerNames(names)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: { db: { type: 'string' }, port: { type: 'string' }, reviewer: { type: 'string', multiple: true }, reviewers: { type: 'string' }, adjudicator: { type: 'string', multiple: true } },
      strict: true,
      allowPositionals: false
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}
