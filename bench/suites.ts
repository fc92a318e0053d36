import type { BenchSuite } from './figure'

/** Every benchmark suite, in the order `npm run bench` runs them. */
export const SUITES: BenchSuite[] = []
