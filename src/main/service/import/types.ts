import type { ImportSummary } from '../../../shared/api'
import type { CsvDialect } from '../../io'
import type { LabelSource, Store } from '../../store'

/** One import, as the service, the worker and the CLI hand it to `runImport`. */
export interface ImportRequest {
  /** Where the bytes are (an upload is a temp file). */
  path: string
  /** The name errors and the import record use (the path as the user typed it, or the upload's name). */
  fileName: string
  /** The base name, for the reviewer of `--gold-as` labels (`import:<file>`). */
  displayName: string
  kind: 'auto' | 'traces' | 'rounds' | 'csv' | 'labels'
  skipInvalid: boolean
  goldAs: LabelSource | null
  /** CSV only; `gold` is a path, `goldName` the name its errors use. */
  dialect: CsvDialect
  goldName: string | null
  /**
   * Who imports a label file (the store's ImportLabelsInput): `fromConsole` (the desktop
   * app or a browser) refuses `random` rows; `asCaller` (a per-reviewer login) also refuses rows
   * naming someone else. Absent: the file's rows as they are (the CLI).
   */
  fromConsole?: boolean
  asCaller?: boolean
  /**
   * The database file, when the import may write from a second thread (large trace files: see
   * writer-thread.ts); null or absent writes from this thread.
   */
  target?: { dbLocation: string; nativeBinding: string | null } | null
}

export type ImportOutcome = Omit<ImportSummary, 'jobId'>

/** The database, opened only when an import first needs it. */
export type StoreSource = () => Promise<Store>
