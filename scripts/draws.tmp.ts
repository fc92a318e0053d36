import { bootstrapDraws } from '../src/main/engine/certificate/drift'
import { useWasmSha256 } from '../src/main/engine/hash'
async function main() {
  await useWasmSha256()
  for (const seed of [0, 1, 2]) {
    const t = performance.now()
    bootstrapDraws(seed, 200, 800); bootstrapDraws(seed, 200, 200)
    console.log('draws', (performance.now() - t).toFixed(0), 'ms')
  }
}
void main()
