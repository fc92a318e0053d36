/**
 * One `arbiter` sub-command (docs/formats.md, CLI contract). Commands write results to `out`,
 * errors to `err`, and return the exit code: 0 success, 2 bad input, 1 other failure.
 */
export interface CliIo {
  out: (text: string) => void
  err: (text: string) => void
}

export interface Command {
  name: string
  /** One line for `arbiter --help`. */
  summary: string
  /** Full usage text for `arbiter <name> --help`. */
  usage: string
  run(argv: string[], io: CliIo): Promise<number>
}

/** Thrown by commands for bad input; the entry point prints it and exits 2. */
export class UsageError extends Error {}
