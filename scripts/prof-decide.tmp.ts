import { openStore } from '../src/main/store'
import { fitAndDecide } from '../src/main/service/fit/run-fit'
import { readEngineSettings } from '../src/main/service/engine-settings'
async function main() {
const db = process.argv[2]
const beta = Number(process.argv[3] ?? 0.12)
const actor = { reviewer: 'bench', sessionId: 'prof', shell: 'cli' as const }
const store = await openStore(db)
const latest = await store.currentFit()
const settings = await readEngineSettings(store)
const t0 = performance.now()
let last = t0, lastPhase = ''
const f = await fitAndDecide(store, { settings, redo: { fit: latest!, budget: { kind: 'absolute', beta } }, writer: { dbPath: db, nativeBinding: null } }, actor, (p) => {
  if (p.phase !== lastPhase) { const now = performance.now(); console.log(`${lastPhase}: ${((now - last)/1000).toFixed(2)} s`); last = now; lastPhase = p.phase }
})
const now = performance.now(); console.log(`${lastPhase}: ${((now - last)/1000).toFixed(2)} s`)
console.log('total', ((now - t0) / 1000).toFixed(2), 's', f.id)
await store.close()

}
void main()
