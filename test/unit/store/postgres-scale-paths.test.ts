/**
 * PostgreSQL's side of the team benchmark's two findings (README, Performance → Team):
 * - the stored decision counts subtract the labeled tasks with one probe of the fit's decisions
 *   per labeled task (never a scan of the decisions), and still agree with counting the rows;
 * - a deep page of the decided queue walks a queue index in its order, the labeled tasks hashed
 *   once and skipped: no sort of the deferred rows (the scale bench's deep page);
 * - a page of an import's tallies (what a first fit packs) starts both key indexes at the cursor:
 *   it reads the page's rows of task_tallies, not every row before them;
 * - a decide's chunk looks its tasks up by key, whatever the statistics say (never a walk of tasks);
 * - one-task writes (reserve, release, resolve) serialize on the task's row at READ COMMITTED: of
 *   many concurrent resolves at one version exactly one succeeds, a hold always refuses another
 *   session's write, and none is refused as "busy".
 */
import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openStore, type Actor, type Store } from '../../../src/main/store'
import { LABELED_BY_DECISION } from '../../../src/main/store/ops/decided-counts'
import { decisionsTable } from '../../../src/main/store/fit-decisions'
import { IMPORT_TALLY_PAGE } from '../../../src/main/store/ops/tallies'
import { POSTGRES as PG_DIALECT } from '../../../src/main/store/postgres/dialect'
import { CHUNK_TASKS } from '../../../src/main/store/postgres/fits'
import { toPgPlaceholders } from '../../../src/main/store/postgres/connection'
import { POSTGRES, usePostgres } from '../../helpers/postgres'
import { describeWith } from '../../helpers/prerequisites'
import { ANA, BO, decision, importTasks, makeTask, NO_FILTER, rejection, saveDecisions, withTallies } from './fixtures'

const FIT = { method: 'per-agent', hyperparameters: {}, reliabilities: {}, certificate: null, metrics: null, parentFitId: null }
const TTL = 60_000
const cluster = usePostgres()

let store: Store
let raw: pg.Pool
let url: string

beforeEach(async () => {
  url = await cluster().createDatabase()
  store = await openStore(url)
  raw = new pg.Pool({ connectionString: url, max: 2 })
})

afterEach(async () => {
  await store.close()
  await raw.end()
})

const reviewer = (i: number): Actor => ({ reviewer: `r${i}`, sessionId: `session-r${i}`, shell: 'web' })

/** The same figures, counted row by row over the fit. */
async function counted(fitId: string): Promise<{ acted: number; deferred: number; spotCheck: number }> {
  const n = async (where: string): Promise<number> =>
    Number(
      (
        await raw.query(
          `SELECT count(*) AS n FROM ${decisionsTable(fitId)} d WHERE ${where} AND NOT EXISTS (SELECT 1 FROM labels l
           WHERE l.task_id = d.task_id AND l.label IS NOT NULL AND NOT EXISTS (SELECT 1 FROM labels s WHERE s.supersedes = l.id))`
        )
      ).rows[0].n
    )
  return { acted: await n(`decision = 'act'`), deferred: await n(`decision = 'defer'`), spotCheck: await n('spot_check') }
}

async function decided(n: number): Promise<string> {
  const tasks = Array.from({ length: n }, (_, i) => makeTask(`t${i}`))
  await importTasks(store, tasks)
  const fit = await store.saveFit(FIT, ANA)
  await saveDecisions(store, fit.value.id, tasks.map((t, i) => decision(t.id, i % 3 === 0 ? 'act' : 'defer', i / n, { spotCheck: i % 5 === 0 })), ANA)
  return fit.value.id
}

describeWith(POSTGRES, 'postgres: stored decision counts', () => {
  it('agree with counting the rows through labels, a second reviewer and an undo', async () => {
    const fitId = await decided(30)
    const expectAgreement = async (): Promise<void> => {
      const want = await counted(fitId)
      expect(await store.counts()).toMatchObject(want)
      const page = (d: 'act' | 'defer') => store.queuePage({ filter: { ...NO_FILTER, decision: d }, sort: 'gap', direction: 'asc', offset: 0, limit: 5 })
      expect((await page('defer')).total).toBe(want.deferred)
      expect((await page('act')).total).toBe(want.acted)
    }
    await expectAgreement()
    const labels = []
    for (const i of [0, 1, 5, 10, 11]) {
      labels.push((await store.recordLabel({ taskId: `t${i}`, label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)).value)
    }
    await store.recordLabel({ taskId: 't1', label: 'false', source: 'escalation', reviewer: 'bo', expectedVersion: labels[1].version }, BO)
    await expectAgreement()
    await store.undoLabel({ labelId: labels[2].labelId, expectedVersion: labels[2].version }, ANA)
    await expectAgreement()
  })

  it('probe the fit\'s decisions by their key once per labeled task, never scanning them', async () => {
    const fitId = await decided(400)
    for (let i = 0; i < 400; i += 40) {
      await store.recordLabel({ taskId: `t${i}`, label: 'true', source: 'escalation', reviewer: 'ana', expectedVersion: 0 }, ANA)
    }
    await raw.query('ANALYZE')
    const explain = await raw.query(`EXPLAIN (FORMAT JSON) ${toPgPlaceholders(LABELED_BY_DECISION(decisionsTable(fitId)))}`)
    const plan = JSON.stringify(explain.rows[0]['QUERY PLAN'])
    type Node = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Parent Relationship'?: string; Plans?: Node[] }
    const nodes: Node[] = []
    const walk = (n: Node): void => {
      nodes.push(n)
      for (const c of n.Plans ?? []) walk(c)
    }
    walk((explain.rows[0]['QUERY PLAN'] as { Plan: Node }[])[0].Plan)
    const onDecisions = nodes.filter((n) => n['Relation Name'] === decisionsTable(fitId))
    // The only read of decisions: one index probe per labeled task, by the key — no scan of them
    // and no join that could hash them all.
    expect(onDecisions.map((n) => n['Node Type']), plan).toEqual([expect.stringMatching(/^Index (Only )?Scan$/)])
    expect(onDecisions[0]['Parent Relationship'], plan).toBe('SubPlan')
    expect(onDecisions[0]['Index Name'], plan).toBe(`${decisionsTable(fitId)}_pkey`)
  })
})

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; 'Index Name'?: string; 'Parent Relationship'?: string; Plans?: PlanNode[] }

function planNodes(plan: PlanNode): PlanNode[] {
  const nodes: PlanNode[] = [plan]
  for (const c of plan.Plans ?? []) nodes.push(...planNodes(c))
  return nodes
}

describeWith(POSTGRES, 'postgres: a deep page of an import\'s tallies', () => {
  it('reads the page\'s rows of task_tallies, not every row before the cursor', async () => {
    const n = 60_000
    const tasks = Array.from({ length: n }, (_, i) => withTallies(makeTask(`t${String(i).padStart(5, '0')}`)))
    const importId = await importTasks(store, tasks)
    await raw.query('ANALYZE')
    const cursor = tasks[50_000].id
    // At a million tasks the planner merge-joins the two key indexes (at this size it need not):
    // the plan it would take there, the other joins priced out.
    const client = await raw.connect()
    let explain
    try {
      await client.query('BEGIN')
      await client.query('SET LOCAL enable_hashjoin = off')
      await client.query('SET LOCAL enable_nestloop = off')
      explain = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${toPgPlaceholders(IMPORT_TALLY_PAGE(PG_DIALECT))}`, [cursor, cursor, importId, 100])
      await client.query('ROLLBACK')
    } finally {
      client.release()
    }
    const plan = JSON.stringify(explain.rows[0]['QUERY PLAN'])
    const nodes = planNodes((explain.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan)
    const onTallies = nodes.filter((x) => x['Relation Name'] === 'task_tallies')
    expect(nodes.some((x) => x['Node Type'] === 'Merge Join'), plan).toBe(true)
    expect(onTallies.length, plan).toBeGreaterThan(0)
    expect(nodes[0]['Actual Rows'], plan).toBe(100)
    // The page's 100 rows (and a batch of read-ahead at most), not the 50,000 before the cursor.
    for (const x of onTallies) expect((x['Actual Rows'] ?? 0) * (x['Actual Loops'] ?? 0), plan).toBeLessThanOrEqual(1000)
  })
})

describeWith(POSTGRES, 'postgres: a deep page of the decided queue', () => {
  it('walks a queue index in order once the decide has vacuumed its table, skipping the labeled tasks from one hash: no sort, no scan', async () => {
    // Enough rows that sorting them all costs the planner more than walking the index (at a few
    // thousand it rightly sorts).
    const n = 60_000
    const fitId = await decided(n)
    const at = new Date().toISOString()
    await store.importLabels({
      fileName: 'labels.csv', sha256: 'b'.repeat(64), kind: 'labels',
      labels: Array.from({ length: n / 10 }, (_, i) => ({ taskId: `t${i * 10 + 1}`, label: 'true', source: 'random' as const, reviewer: 'ana', at, note: null }))
    }, ANA)
    // The decide's new table is vacuumed once published; closing the store waits for it.
    await store.close()
    const stats = await raw.query('SELECT last_vacuum, last_analyze FROM pg_stat_user_tables WHERE relname = $1', [decisionsTable(fitId)])
    expect(stats.rows[0].last_vacuum).not.toBeNull()
    expect(stats.rows[0].last_analyze).not.toBeNull()
    store = await openStore(url)
    // The page's statement as the store sends it, then its plan with the same parameters.
    const sent: { text: string; values: unknown[] }[] = []
    const query = pg.Client.prototype.query
    const spy = function (this: pg.Client, ...args: unknown[]) {
      if (typeof args[0] === 'string' && args[0].includes('OFFSET')) sent.push({ text: args[0], values: args[1] as unknown[] })
      return (query as (...a: unknown[]) => unknown).apply(this, args)
    }
    pg.Client.prototype.query = spy as typeof query
    let page
    try {
      page = await store.queuePage({ filter: { ...NO_FILTER, decision: 'defer' }, sort: 'gap', direction: 'asc', offset: 30_000, limit: 50 })
    } finally {
      pg.Client.prototype.query = query
    }
    expect(page.rows).toHaveLength(50)
    expect(page.rows.some((r) => Number(r.taskId.slice(1)) % 10 === 1)).toBe(false)
    expect(sent).toHaveLength(1)
    const explain = await raw.query(`EXPLAIN (FORMAT JSON) ${sent[0].text}`, sent[0].values)
    const plan = JSON.stringify(explain.rows[0]['QUERY PLAN'])
    const nodes = planNodes((explain.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan)
    const onDecisions = nodes.filter((x) => x['Relation Name'] === decisionsTable(fitId))
    // The one sort allowed is the page's own 50 rows, above the LIMIT; none below it.
    const limit = nodes.find((x) => x['Node Type'] === 'Limit') as PlanNode
    expect(planNodes(limit).filter((x) => /Sort$/.test(x['Node Type'])).length, plan).toBe(0)
    expect(onDecisions.every((x) => /^Index (Only )?Scan$/.test(x['Node Type'])), plan).toBe(true)
    expect(onDecisions.some((x) => x['Index Name'] === `${decisionsTable(fitId)}_by_gap`), plan).toBe(true)
    expect(plan).toContain('hashed SubPlan')
  })
})

describeWith(POSTGRES, 'postgres: one-task writes take turns on the task row', () => {
  it('of eight concurrent resolves at one version exactly one succeeds; the others are conflicts, none busy', async () => {
    await decided(10)
    for (let round = 0; round < 3; round++) {
      const taskId = `t${round}`
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          store.recordLabel({ taskId, label: 'true', source: 'escalation', reviewer: `r${i}`, expectedVersion: 0 }, reviewer(i))
        )
      )
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      for (const r of results) if (r.status === 'rejected') expect((r.reason as { code: string }).code).toBe('conflict')
      const rows = await raw.query('SELECT count(*) AS n FROM labels WHERE task_id = $1', [taskId])
      expect(Number(rows.rows[0].n)).toBe(1)
      expect((await store.getTaskSummary(taskId)).version).toBe(1)
    }
  })

  it('concurrent reserves of one task: one session holds it, the others see the hold and cannot resolve it', async () => {
    await decided(10)
    const reserves = await Promise.all(Array.from({ length: 8 }, (_, i) => store.reserveTask('t3', reviewer(i), TTL)))
    const holders = reserves.filter((r) => r.value.mine !== null)
    expect(holders).toHaveLength(1)
    const holder = holders[0].value.mine?.sessionId
    for (const r of reserves) if (r.value.mine === null) expect(r.value.heldBy?.sessionId).toBe(holder)
    const other = reserves.findIndex((r) => r.value.mine === null)
    const refused = await rejection(store.recordLabel({ taskId: 't3', label: 'true', source: 'escalation', reviewer: 'x', expectedVersion: 0 }, reviewer(other)))
    expect(refused).toMatchObject({ code: 'conflict', details: { reason: 'reserved' } })
    const writes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        store.recordLabel({ taskId: 't3', label: 'true', source: 'escalation', reviewer: `r${i}`, expectedVersion: 0 }, reviewer(i))
      )
    )
    const ok = writes.flatMap((w, i) => (w.status === 'fulfilled' ? [reviewer(i).sessionId] : []))
    expect(ok).toEqual([holder])
  })

  it('a release racing reserves and resolves of the same task leaves it consistent', async () => {
    await decided(10)
    await store.reserveTask('t4', ANA, TTL)
    const ops = await Promise.allSettled([
      store.releaseTask('t4', ANA),
      store.reserveTask('t4', BO, TTL),
      store.recordLabel({ taskId: 't4', label: 'true', source: 'escalation', reviewer: 'bo', expectedVersion: 0 }, BO)
    ])
    for (const o of ops) if (o.status === 'rejected') expect((o.reason as { details: { reason?: string } }).details.reason).toBe('reserved')
    // Nobody else can end ANA's hold, so the release always finds it; BO's writes are refused until then.
    expect(ops[0]).toEqual({ status: 'fulfilled', value: expect.objectContaining({ value: true }) })
    const held = await raw.query('SELECT session_id FROM reservations WHERE task_id = $1', ['t4'])
    expect(held.rows.every((r: { session_id: string }) => r.session_id === BO.sessionId)).toBe(true)
    const audit = await raw.query("SELECT action FROM audit_log WHERE target = $1 AND action <> 'task.reserve' ORDER BY seq", ['t4'])
    const actions = audit.rows.map((r: { action: string }) => r.action)
    expect(actions).toEqual(ops[2].status === 'fulfilled' ? ['task.release', 'label.record'] : ['task.release'])
  })
})

describeWith(POSTGRES, 'postgres: the tasks of a decide\'s chunk', () => {
  it('are probed by key, right after their import and before any ANALYZE: never a walk of the tasks table', async () => {
    const n = 30_000
    const tasks = Array.from({ length: n }, (_, i) => makeTask(`t${String(i).padStart(5, '0')}`))
    await importTasks(store, tasks)
    // The chunk a decide writes after its first 10,000 tasks: 2,000 consecutive ids, as decidePages makes them.
    const ids = tasks.slice(10_000, 12_000).map((t) => t.id)
    const explain = await raw.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${toPgPlaceholders(CHUNK_TASKS)}`, [ids])
    // The plan, its 2,000 ids left out.
    const plan = JSON.stringify(explain.rows[0]['QUERY PLAN']).replace(/'\{[^}]*\}'/g, "'{…}'")
    const nodes = planNodes((explain.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan)
    expect(nodes[0]['Actual Rows'], plan).toBe(2000)
    const onTasks = nodes.filter((x) => x['Relation Name'] === 'tasks')
    expect(onTasks.length, plan).toBeGreaterThan(0)
    for (const x of onTasks) {
      expect(x['Index Name'], plan).toBe('tasks_pkey')
      // The chunk's 2,000 rows, not the 30,000 of the table.
      expect((x['Actual Rows'] ?? 0) * (x['Actual Loops'] ?? 0), plan).toBeLessThanOrEqual(2000)
    }
  })
})
