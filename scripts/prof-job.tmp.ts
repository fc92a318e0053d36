import { openStore } from '../src/main/store'
import { runJob } from '../src/main/service/jobs/runner'
import { readEngineSettings } from '../src/main/service/engine-settings'
async function main() {
const db = process.argv[2]
const actor = { reviewer: 'bench', sessionId: 'prof', shell: 'cli' as const }
const store = await openStore(db)
const latest = await store.currentFit()
const settings = await readEngineSettings(store)
await store.close()
for (const beta of [0.05, 0.1, 0.15]) {
  const t0 = performance.now(); const c0 = process.cpuUsage()
  let last = t0, lastPhase = ''
  await runJob({ kind: 'fit', dbPath: db, nativeBinding: null, settings, actor, redo: { fitId: latest!.id, budget: { kind: 'absolute', beta } } }, (p) => {
    const now = performance.now(); if (p.message !== lastPhase && p.message) { console.log(`  ${lastPhase}: ${((now - last) / 1000).toFixed(2)} s`); last = now; lastPhase = p.message ?? '' }
  })
  const c = process.cpuUsage(c0); console.log('job', beta, ((performance.now() - t0) / 1000).toFixed(2), 's wall', (c.user/1e6).toFixed(2), 'user', (c.system/1e6).toFixed(2), 'sys')
}

}
void main()
