/**
 * The `arbiter` dispatcher (docs/formats.md, CLI contract). Exit 0 on success, 2 on bad input
 * (errors on stderr), 1 on any other failure.
 */
import { CLI_EXIT } from '../../shared/errors'
import { UsageError, type CliIo } from './command'
import { COMMANDS } from './commands'

const io: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`)
}

export function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return [
    'arbiter — review console and engine for multi-LLM councils',
    '',
    'Usage: npm run -s arbiter -- <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `arbiter <command> --help` for a command’s options.',
    'Exit codes: 0 success, 2 bad input, 1 other failure.'
  ].join('\n')
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText())
    return name === undefined ? 2 : 0
  }
  const command = COMMANDS.find((c) => c.name === name)
  if (!command) {
    io.err(`arbiter: unknown command ${JSON.stringify(name)}\n\n${helpText()}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.usage)
    return 0
  }
  try {
    return await command.run(rest, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`arbiter ${name}: ${error.message}\n\n${command.usage}`)
      return 2
    }
    const e = error as { code?: unknown; message?: unknown }
    if (typeof e?.code === 'string' && e.code in CLI_EXIT) {
      io.err(`arbiter ${name}: ${String(e.message)}`)
      return CLI_EXIT[e.code as keyof typeof CLI_EXIT]
    }
    io.err(`arbiter ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return 1
  }
}
