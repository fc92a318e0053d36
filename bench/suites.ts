import type { BenchSuite } from './figure'
import { ui } from './ui'
import { engine } from './engine'
import { certify } from './certify'
import { importSuite } from './import'
import { scale } from './scale'
import { team } from './team'

/** Every benchmark suite, in the order `npm run bench` runs them. */
export const SUITES: BenchSuite[] = [engine, certify, importSuite, ui, scale, team]
