/** Messages between the job runner and its worker thread. */
export interface IntegrityJob {
  kind: 'integrity-check'
  dbPath: string
  nativeBinding: string | null
}

export type JobRequest = IntegrityJob

export interface JobResults {
  'integrity-check': { ok: boolean; messages: string[] }
}

export type WorkerMessage =
  | { type: 'progress'; done: number; total: number; message: string | null }
  | { type: 'result'; value: unknown }
  | { type: 'error'; message: string; code: string | null }
