import { openStore } from '../src/main/store'
import { runJob } from '../src/main/service/jobs/runner'
import { readEngineSettings } from '../src/main/service/engine-settings'
async function main() {
  const db = process.argv[2]
  const actor = { reviewer: 'bench', sessionId: 'prof', shell: 'cli' as const }
  const store = await openStore(db)
  const latest = await store.currentFit()
  const settings = await readEngineSettings(store)
  if (!process.env.KEEP_OPEN) await store.close()
  for (const beta of (process.env.BETAS ?? "0.05").split(",").map(Number)) {
    const t0 = performance.now(); const c0 = process.cpuUsage()
    let lastKey = ''
    const marks: string[] = []
    await runJob({ kind: 'fit', dbPath: db, nativeBinding: null, settings, actor, redo: { fitId: latest!.id, budget: { kind: 'absolute', beta } } }, (p) => {
      const key = (p.message ?? '').slice(0, 12) + (p.done === p.total ? ' end' : '')
      if (key !== lastKey) { marks.push(`${((performance.now() - t0) / 1000).toFixed(2)} ${key}`); lastKey = key }
    })
    const c = process.cpuUsage(c0)
    console.log(marks.join(' | '))
    console.log('job', beta, ((performance.now() - t0) / 1000).toFixed(2), 's wall', (c.user / 1e6).toFixed(2), 'user', (c.system / 1e6).toFixed(2), 'sys')
  }
}
void main()
