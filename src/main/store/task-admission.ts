/**
 * Whether an import batch may write a task whose id the database already holds — the same rule on
 * both backends; only the deletion of an abandoned leftover is theirs to run.
 */
import { StoreError, type ImportRecord, type ImportState } from './contract'

/** An existing row and its import; who began that import, where and when, for the message when it is still running. */
export type ExistingTask = {
  import_id: string
  content_sha256: string
  state: ImportState
  file_name: string
  created_by?: string
  shell?: string
  session_id?: string
  created_at?: string
}

/**
 * `insert`: new id; `replace`: left over from an abandoned import not yet swept (it was never
 * visible) — delete it, then insert; `skip`: the same content is already present. Throws on a real
 * clash: another import is still writing it (conflict), or it arrives with different content.
 */
export function taskAdmission(imp: ImportRecord, task: { id: string; contentSha256: string }, old: ExistingTask | undefined): 'insert' | 'replace' | 'skip' {
  if (old === undefined) return 'insert'
  if (old.state === 'abandoned') return 'replace'
  if (old.content_sha256 === task.contentSha256 && (old.state === 'published' || old.import_id === imp.id)) return 'skip'
  const details = {
    taskId: task.id,
    existingImportId: old.import_id,
    existingFileName: old.file_name,
    importId: imp.id,
    fileName: imp.fileName
  }
  if (old.state === 'staged' && old.import_id !== imp.id) {
    throw new StoreError(
      'conflict',
      `task "${task.id}" is being imported by import ${old.import_id} ("${old.file_name}")` +
        (old.created_by === undefined ? '' : ` begun by ${old.created_by} (${old.shell}, session ${old.session_id}) at ${old.created_at}`) +
        ', not yet published; ' +
        `import ${imp.id} ("${imp.fileName}") cannot write it now`,
      details
    )
  }
  throw new StoreError(
    'bad_input',
    `task "${task.id}" has different content in import ${imp.id} ("${imp.fileName}") than in import ` +
      `${old.import_id} ("${old.file_name}"), which already holds it; a task cannot be changed by re-importing`,
    details
  )
}
