import type { Command } from './command'
import { serveCommand } from './commands/serve'
import { posteriorCommand } from './commands/posterior'
import { evaluateCommand } from './commands/evaluate'

/** Every command `arbiter --help` lists; each exists and works. */
export const COMMANDS: Command[] = [serveCommand, posteriorCommand, evaluateCommand]
