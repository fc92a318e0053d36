/**
 * A decide's writer thread (SQLite): this thread decides page after page while the writer thread,
 * with its own connection, writes the previous page through the store's `appendDecisions` — the
 * same checks, the same transaction per page. At a million tasks the writes are about as long as
 * the deciding, so overlapping them takes most of one off the decide. The finish (indexes, the fit
 * made current) stays on the caller's connection, after the last page is written.
 * PostgreSQL needs no thread: its server writes on its own core while this one decides.
 */
import type { MessagePort } from 'node:worker_threads'
import { openStore, type DecisionInput, type Store } from '../../store'
import { RequestThread, serveRequests } from '../jobs/request-thread'

export type DecisionsRequest = { type: 'append'; fitId: string; rows: DecisionInput[] }

export interface DecisionsThreadData {
  kind: 'decisions-writer'
  dbPath: string
  nativeBinding: string | null
}

/** The writer thread's side: its connection opens with the first page. */
export function serveDecisionsWriter(port: MessagePort, data: DecisionsThreadData): void {
  let store: Store | null = null
  serveRequests<DecisionsRequest>(
    port,
    async (req) => {
      store ??= await openStore(data.dbPath, data.nativeBinding === null ? {} : { nativeBinding: data.nativeBinding })
      return (await store.appendDecisions(req.fitId, req.rows)).value
    },
    async () => {
      await store?.close()
    }
  )
}

/** The decide's side: `append` resolves once its page is committed. */
export class DecisionsThread extends RequestThread<DecisionsRequest> {
  constructor(target: { dbPath: string; nativeBinding: string | null }) {
    const data: DecisionsThreadData = { kind: 'decisions-writer', dbPath: target.dbPath, nativeBinding: target.nativeBinding }
    super(data)
  }

  async append(fitId: string, rows: DecisionInput[]): Promise<void> {
    await this.send({ type: 'append', fitId, rows })
  }
}
