import type { Store } from '../../store'

export type { ImportOutcome, ImportRequest } from '../jobs/protocol'

/** The database, opened only when an import first needs it. */
export type StoreSource = () => Promise<Store>
