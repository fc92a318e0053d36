/**
 * The `Store` of either backend, made once from the table of operations (operations.ts): each
 * method checks the store is open (and writable, and its actor), reads the clock once — so every
 * row a write produces carries the same time, even when PostgreSQL retries the transaction — runs
 * the operation in one transaction of its kind, and maps driver errors to StoreError at the
 * boundary. A driver says how a transaction and a plan run on its backend.
 */
import { StoreError, type ChangeFeedEvents, type Store, type Topic } from './contract'
import type { Dialect } from './ops/dialect'
import type { ImportLocks, Owners } from './ops/import-owners'
import { OPERATIONS, type OperationName, type Tx } from './operations'
import type { Plan } from './plan'
import { checkActor } from './validate'

/** How one backend runs things; `Q` is its handle on the open transaction. */
export interface Driver<Q> {
  dialect: Dialect
  readonly: boolean
  now(): Date
  /**
   * Runs `fn` in one transaction of kind `tx`; `topics`: what a write changes (null for a read);
   * `importId`: the import it belongs to, whose own connection it runs on if the backend has one.
   */
  transaction<T>(tx: Tx, topics: Topic[] | null, fn: (q: Q) => T | Promise<T>, importId?: string): T | Promise<T>
  /** The backend's import locks (ops/import-owners.ts). */
  importLocks: ImportLocks
  runPlan<T>(q: Q, plan: Plan<T>): T | Promise<T>
  toStoreError(e: unknown): StoreError
  close(): void | Promise<void>
  listenChanges?(events: ChangeFeedEvents): () => void
  /** A fit's decisions were just published (committed): the upkeep its new table is owed, if any. */
  decided?(fitId: string): void
}

/**
 * The operations the table gives no plan for (a backend's bulk writes, status, the queue), by
 * name: each takes the transaction's handle, then the operation's time when the table says it reads
 * the clock, then the Store method's arguments. A backend passes its modules as they are, so the
 * signatures are checked by the store suites, not here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type BackendOperations<Q> = { [K in OperationName]?: (q: Q, ...args: any[]) => unknown }

export function buildStore<Q>(driver: Driver<Q>, own: BackendOperations<Q>): Store {
  let closed = false
  const live = (): void => {
    if (closed) throw new StoreError('internal', 'the store is closed')
  }

  function method<K extends OperationName>(name: K): (...args: unknown[]) => Promise<unknown> {
    const op = OPERATIONS[name]
    const plan = op.plan as ((d: Dialect, now: string, ...args: unknown[]) => Plan<unknown>) | undefined
    const owned = op.owned as ((o: Owners, now: string, ...args: unknown[]) => Promise<unknown>) | undefined
    const backend = own[name] as ((q: Q, ...args: unknown[]) => unknown) | undefined
    if (plan === undefined && owned === undefined && backend === undefined) throw new StoreError('internal', `the ${driver.dialect.backend} store has no ${name}`)
    const topics = op.topics
    return async (...args) => {
      try {
        live()
        if (topics !== null) {
          if (driver.readonly) throw new StoreError('internal', 'the store was opened read-only')
          if (op.actor) checkActor(args[1])
        }
        const now = driver.now().toISOString()
        const importId = op.onImport === true && typeof args[0] === 'string' ? args[0] : undefined
        const value =
          owned !== undefined
            ? await owned(owners(topics), now, ...args)
            : await driver.transaction(
                op.tx,
                topics,
                (q) => (plan !== undefined ? driver.runPlan(q, plan(driver.dialect, now, ...args)) : op.clock ? backend!(q, now, ...args) : backend!(q, ...args)),
                importId
              )
        if (op.decides === true && typeof args[0] === 'string') driver.decided?.(args[0])
        return topics === null ? value : { value, topics }
      } catch (e) {
        throw driver.toStoreError(e)
      }
    }
  }

  /** An owned import step's transactions: reads, and writes that change `topics`. */
  const owners = (topics: Topic[] | null): Owners => ({
    dialect: driver.dialect,
    locks: driver.importLocks,
    run: async <T>(tx: 'read' | 'write', plan: () => Plan<T>, importId?: string): Promise<T> =>
      (await driver.transaction(tx, tx === 'read' ? null : topics, (q) => driver.runPlan(q, plan()), importId)) as T
  })

  const store: Record<string, unknown> = {}
  for (const name of Object.keys(OPERATIONS) as OperationName[]) store[name] = method(name)
  if (driver.listenChanges !== undefined) {
    const listen = driver.listenChanges.bind(driver)
    store.listenChanges = (events: ChangeFeedEvents) => {
      live()
      return listen(events)
    }
  }
  store.close = async () => {
    if (closed) return
    closed = true
    try {
      // The imports this store was running are left staged and dead: the next sweep deletes them.
      await driver.importLocks.releaseAll()
      await driver.close()
    } catch (e) {
      throw driver.toStoreError(e)
    }
  }
  return store as unknown as Store
}
