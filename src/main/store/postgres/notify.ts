/**
 * Change notification on PostgreSQL (live updates): every write transaction NOTIFYs one
 * channel with its writer and topics; a store that is asked to listen opens one dedicated client
 * (outside the pool: a LISTEN lives as long as its session) and reports other writers'
 * notifications. PostgreSQL delivers a NOTIFY only when its transaction commits, once per listening
 * session, so a rolled-back or retried attempt notifies nobody. This file is only the transport:
 * what to do when the client is lost (poll, reconnect) is the watcher's policy (service/watch.ts).
 */
import pg from 'pg'
import { TOPICS, type ChangeFeedEvents, type Topic } from '../contract'
import type { PgSql } from './connection'

export const CHANGE_CHANNEL = 'arbiter_changes'
/** The listener's application_name: how an operator (or a test) finds these sessions in pg_stat_activity. */
export const LISTEN_APPLICATION = 'arbiter-listen'

type Payload = { w: string; t: Topic[] }

/** Inside a write transaction: delivered to every listener when (and only if) it commits. */
export async function notifyChange(q: PgSql, writer: string, topics: readonly Topic[]): Promise<void> {
  const payload: Payload = { w: writer, t: [...topics] }
  await q.get('SELECT pg_notify(?, ?)', CHANGE_CHANNEL, JSON.stringify(payload))
}

/** Another writer's topics, or null for this store's own writes and for anything unreadable. */
export function topicsOf(payload: string | undefined, self: string): Topic[] | null {
  if (payload === undefined) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(payload)
  } catch {
    return null
  }
  const p = parsed as Partial<Payload> | null
  if (p === null || typeof p !== 'object' || p.w === self || !Array.isArray(p.t)) return null
  return p.t.filter((t): t is Topic => (TOPICS as readonly string[]).includes(t))
}

/**
 * The listening clients of one store: each `listen` is one session that reports `up` once its
 * LISTEN is in effect, `change` per other writer's commit, and `down` once when it is lost (then
 * it is finished; the caller decides whether to listen again). `closeAll` ends them with the store.
 */
export class ChangeListeners {
  /** Each live client's stop: ends it without reporting `down`. */
  private readonly live = new Map<pg.Client, () => Promise<void>>()

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly writer: string
  ) {}

  listen(events: ChangeFeedEvents): () => void {
    const client = new pg.Client({ ...this.config, application_name: LISTEN_APPLICATION, keepAlive: true })
    let finished = false
    const finish = (error: unknown | null): Promise<void> => {
      if (finished) return Promise.resolve()
      finished = true
      this.live.delete(client)
      const ended = client.end().catch(() => undefined)
      if (error !== null) events.down(error)
      return ended
    }
    this.live.set(client, () => finish(null))
    client.on('notification', (msg) => {
      if (finished || msg.channel !== CHANGE_CHANNEL) return
      const topics = topicsOf(msg.payload, this.writer)
      if (topics !== null && topics.length > 0) events.change(topics)
    })
    client.on('error', (e) => void finish(e))
    client.on('end', () => void finish(new Error('the listening connection ended')))
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANGE_CHANNEL}`))
      .then(
        () => {
          if (!finished) events.up()
        },
        (e: unknown) => void finish(e)
      )
    return () => void finish(null)
  }

  /** With the store: ends every client; none reports `down`. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.live.values()].map((stop) => stop()))
  }
}
