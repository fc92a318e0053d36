/** Which imports' tallies are packed, and the check an import's packs pass before they are written. */
import { StoreError, type TallyPackRow, type TallySource } from './contract'
import { compareIds } from './tally-pack'

/** The packs cover the import's tasks exactly once, in ascending, non-overlapping id ranges. */
export function encodedPackCheck(source: TallySource, packs: readonly TallyPackRow[]): void {
  let total = 0
  packs.forEach((p, i) => {
    total += p.tasks
    if (i > 0 && compareIds(packs[i - 1].last_task, p.first_task) >= 0) {
      throw new StoreError('bad_input', `tally packs of import ${source.importId} overlap at part ${i}`, { importId: source.importId })
    }
  })
  if (total !== source.tasks) {
    throw new StoreError('bad_input', `tally packs of import ${source.importId} hold ${total} tasks, not its ${source.tasks}`, { importId: source.importId })
  }
}
