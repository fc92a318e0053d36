import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { startConsoleServer } from '../../console-server'
import { defaultDbPath } from '../../paths'
import { dbPathOf } from '../../service/cli-support'
import { isServerLocation, passwordFree } from '../../store'
import { UsageError, type Command } from '../command'

const usage = `Usage: arbiter serve [--db PATH] [--port N]

Serves the review console in a browser, on 127.0.0.1 only, and prints the URL to open
(it carries a per-launch token; opening it sets a session cookie). Stop with Ctrl+C.

  --db PATH   the database file, or a postgres:// URL (default: ${defaultDbPath()}; ARBITER_HOME moves the folder)
  --port N    the port (default: a free one)`

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the review console in a browser (127.0.0.1 only)',
  usage,
  async run(argv, io) {
    const { values } = parse(argv)
    const dbPath = dbPathOf(values.db)
    const port = values.port === undefined ? 0 : Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got ${values.port}`)
    if (!isServerLocation(dbPath)) mkdirSync(dirname(dbPath), { recursive: true })

    const server = await startConsoleServer({ dbPath, port })
    io.out(`Arbiter console for ${isServerLocation(dbPath) ? passwordFree(dbPath) : dbPath}`)
    io.out(`Open: ${server.host.loginUrl}`)
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop)
        process.off('SIGTERM', stop)
        done()
      }
      process.on('SIGINT', stop)
      process.on('SIGTERM', stop)
    })
    await server.close()
    return 0
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: { db: { type: 'string' }, port: { type: 'string' } }, strict: true, allowPositionals: false })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}
