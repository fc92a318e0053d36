import type { Command } from './command'
import { serveCommand } from './commands/serve'
import { posteriorCommand } from './commands/posterior'
import { evaluateCommand } from './commands/evaluate'
import { certifyCommand } from './commands/certify'
import { driftCommand } from './commands/drift'

/** Every command `arbiter --help` lists; each exists and works. */
export const COMMANDS: Command[] = [serveCommand, posteriorCommand, evaluateCommand, certifyCommand, driftCommand]
