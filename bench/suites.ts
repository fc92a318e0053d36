import type { BenchSuite } from './figure'
import { engine } from './engine'
import { certify } from './certify'

/** Every benchmark suite, in the order `npm run bench` runs them. */
export const SUITES: BenchSuite[] = [engine, certify]
