import { BOUND_KINDS, type BoundKind } from '../../shared/contract/settings'
import { UsageError } from './command'

/** `--bound binomial|hoeffding` (docs/engine.md §8.7); absent: undefined (the command's default applies). */
export function boundFlag(value: string | undefined): BoundKind | undefined {
  if (value === undefined) return undefined
  if (!(BOUND_KINDS as readonly string[]).includes(value)) throw new UsageError(`--bound must be one of ${BOUND_KINDS.join(', ')}; got "${value}"`)
  return value as BoundKind
}
