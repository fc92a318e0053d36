import { runJob } from '../src/main/service/jobs/runner'
async function main() {
  for (let i = 0; i < 4; i++) {
    const t0 = performance.now()
    let first = 0
    await runJob({ kind: 'integrity-check', dbPath: '/tmp/d.db', nativeBinding: null } as never, () => { if (first === 0) first = performance.now() - t0 })
    console.log('first progress', first.toFixed(0), 'ms; done', (performance.now() - t0).toFixed(0), 'ms')
  }
}
void main()
