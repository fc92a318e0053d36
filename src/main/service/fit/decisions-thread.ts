/**
 * A decide's writer thread (SQLite): this thread decides page after page while the writer thread,
 * with its own connection, writes the previous page through the store's `appendDecisionPage` —
 * the same checks, the same transaction per page. A page's columns are moved to the thread, not
 * copied (decision-page.ts). At a million tasks the writes are about as long as
 * the deciding, so overlapping them takes most of one off the decide. The finish (indexes, the fit
 * made current) stays on the caller's connection, after the last page is written.
 * PostgreSQL needs no thread: its server writes on its own core while this one decides.
 */
import type { MessagePort } from 'node:worker_threads'
import { openStore, pageBuffers, type DecisionPage } from '../../store'
import { RequestThread, serveRequests } from '../jobs/request-thread'

export type DecisionsRequest = { type: 'append'; fitId: string; page: DecisionPage }

export interface DecisionsThreadData {
  kind: 'decisions-writer'
  dbLocation: string
  nativeBinding: string | null
}

/**
 * The writer thread's side: its connection opens as the thread starts, while the decide is still
 * fitting; a failure to open is the first page's error.
 */
export function serveDecisionsWriter(port: MessagePort, data: DecisionsThreadData): void {
  const opening = openStore(data.dbLocation, data.nativeBinding === null ? {} : { nativeBinding: data.nativeBinding })
  opening.catch(() => undefined) // reported by the first request that awaits it
  serveRequests<DecisionsRequest>(
    port,
    async (req) => (await (await opening).appendDecisionPage(req.fitId, req.page)).value,
    async () => {
      const store = await opening.catch(() => null)
      await store?.close()
    }
  )
}

/** The decide's side: `append` resolves once its page is committed. */
export class DecisionsThread extends RequestThread<DecisionsRequest> {
  constructor(target: { dbLocation: string; nativeBinding: string | null }) {
    const data: DecisionsThreadData = { kind: 'decisions-writer', dbLocation: target.dbLocation, nativeBinding: target.nativeBinding }
    super(data)
  }

  /** The page's buffers move to the thread: it is unusable here afterwards. */
  async append(fitId: string, page: DecisionPage): Promise<void> {
    await this.send({ type: 'append', fitId, page }, pageBuffers(page))
  }
}
