import type { Command } from './command'
import { serveCommand } from './commands/serve'
import { posteriorCommand } from './commands/posterior'
import { evaluateCommand } from './commands/evaluate'
import { certifyCommand } from './commands/certify'
import { driftCommand } from './commands/drift'
import { importCommand } from './commands/import'
import { fitCommand } from './commands/fit'
import { decideCommand } from './commands/decide'
import { exportCommand } from './commands/export'
import { demoCommand } from './commands/demo'
import { reportCommand } from './commands/report'

/** Every command `arbiter --help` lists; each exists and works. */
export const COMMANDS: Command[] = [serveCommand, posteriorCommand, evaluateCommand, certifyCommand, driftCommand, importCommand, fitCommand, decideCommand, exportCommand, demoCommand, reportCommand]
