import type { CliIo, Command } from '../../../src/main/cli/command'

/** Runs a command in-process and captures what it writes, one entry per `out`/`err` call. */
export async function runCaptured(command: Command, argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t) }
  const code = await command.run(argv, io)
  return { code, out, err }
}
