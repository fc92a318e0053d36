import type { Command } from './command'
import { serveCommand } from './commands/serve'

/** Every command `arbiter --help` lists; each exists and works. */
export const COMMANDS: Command[] = [serveCommand]
