/**
 * Child process for sqlite-crash.test.ts (not a test itself): records a label, reports it once
 * acknowledged, then keeps importing batches into a staged import until it is killed.
 */
import { openSqliteStore } from '../../../src/main/store'
import { ANA, makeTask, sha } from './fixtures'

async function main(): Promise<void> {
  const path = process.argv[2]
  const store = await openSqliteStore(path)
  const summary = await store.getTaskSummary('published-1')
  const label = await store.recordLabel(
    { taskId: 'published-1', label: 'false', source: 'escalation', reviewer: 'ana', expectedVersion: summary.version },
    ANA
  )
  const begun = await store.beginImport({ fileName: 'big.jsonl', sha256: sha('big'), kind: 'traces' }, ANA)
  let n = 0
  const batch = async (): Promise<void> => {
    const tasks = Array.from({ length: 200 }, () => makeTask(`staged-${n++}`))
    await store.writeImportBatch(begun.value.id, { tasks })
    if (n === 200) process.stdout.write(`${JSON.stringify({ labelId: label.value.labelId })}\n`)
    setImmediate(() => void batch())
  }
  await batch()
}

void main()
