/**
 * The store contract (docs/architecture.md, "store" and "Store neutrality"): ONE async interface of atomic
 * operations, by domain. Each operation is one transaction inside the backend, so callers never
 * hold a transaction open across an `await`. Every write that changes visible state appends
 * exactly one audit row in its own transaction.
 */
import type { AuditStore } from './audit'
import type { FitStore } from './fits'
import type { FlagStore } from './flags'
import type { ImportStore } from './imports'
import type { LabelStore } from './labels'
import type { QueueStore } from './queue'
import type { StatusStore } from './status'
import type { TallyStore } from './tallies'
import type { TeamStore } from './team'

export interface Store extends StatusStore, ImportStore, LabelStore, FitStore, TallyStore, QueueStore, AuditStore, TeamStore, FlagStore {}
