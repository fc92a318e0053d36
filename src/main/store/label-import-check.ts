/**
 * The checks of a label file (`arbiter.labels/1`) import that hold no SQL, the same for both
 * backends: the input's shape, and each label against the task it names.
 */
import { LABEL_SOURCES, StoreError, type Actor, type ImportLabelsInput, type LabelSource } from './contract'
import { parseStringArray } from './rows'
import { checkId, checkIsoUtc, checkNullableString, checkOneOf, checkSha256, checkString } from './validate'

/** A label of the file, checked, ready to append. */
export type ImportedLabel = { taskId: string; label: string; source: LabelSource; reviewer: string; at: string; note: string | null }

export function checkLabelsImport(input: ImportLabelsInput): void {
  checkId(input.fileName, 'fileName')
  checkSha256(input.sha256, 'sha256')
  if (input.kind !== 'labels') throw new StoreError('bad_input', 'importLabels takes kind "labels"')
  if (!Array.isArray(input.labels)) throw new StoreError('bad_input', 'labels must be an array')
}

/**
 * `labels[index]`, whose (checked) `taskId` names `task`: the candidates of the published task,
 * or undefined when there is none.
 */
export function checkImportedLabel(
  l: ImportLabelsInput['labels'][number],
  index: number,
  taskId: string,
  task: { candidates: string } | undefined
): ImportedLabel {
  const where = `labels[${index}]`
  if (task === undefined) throw new StoreError('not_found', `${where}: no task ${taskId}`, { taskId, index })
  const label = checkString(l.label, `${where}.label`)
  if (!parseStringArray(task.candidates).includes(label)) {
    throw new StoreError('bad_input', `${where}: "${label}" is not a candidate of task ${taskId}`, { taskId, label, index })
  }
  return {
    taskId,
    label,
    source: checkOneOf(l.source, LABEL_SOURCES, `${where}.source`),
    reviewer: checkId(l.reviewer, `${where}.reviewer`),
    at: checkIsoUtc(l.at, `${where}.at`),
    note: checkNullableString(l.note, `${where}.note`)
  }
}

/**
 * A label a console imports (ImportLabelsInput): not `random` — a file cannot claim a blind draw —
 * and, imported as the caller's own (`asCaller`), naming the caller.
 */
export function checkConsoleLabel(l: ImportedLabel, index: number, actor: Actor, asCaller: boolean): void {
  const where = `labels[${index}]`
  if (asCaller && l.reviewer !== actor.reviewer) {
    throw new StoreError('unauthorized', `${where}: the label names reviewer ${l.reviewer}; signed in as ${actor.reviewer}, you may import only your own labels`, {
      taskId: l.taskId, index, reviewer: l.reviewer
    })
  }
  if (l.source === 'random') {
    throw new StoreError('unauthorized', `${where}: a label of source random comes only from a blind draw (Calibrate) or the CLI's import, not a console upload`, {
      taskId: l.taskId, index
    })
  }
}
