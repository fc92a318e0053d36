/** The console's start: what it is connected to, the headline counts, and the database check. */
import type { Shell } from '../vocabularies'
import { command, defineCalls, noArgs, query, returns } from './call'

export interface AppInfo {
  version: string
  shell: Shell
  backend: 'sqlite' | 'postgres'
  /** Where the data lives (a file path, or a redacted server URL). */
  dbLocation: string
  schemaVersion: number
  /** The caller's reviewer name is fixed by their login link (Settings cannot change it). */
  reviewerFromToken: boolean
}

export interface Counts {
  tasks: number
  seats: number
  moves: number
  /** Live labels (superseded ones excluded). */
  labels: number
  labeledTasks: number
  deferred: number
  acted: number
  spotCheck: number
  fits: number
}

export interface IntegrityReport {
  ok: boolean
  messages: string[]
  checkedAt: string
  jobId: string
}

export const appCalls = defineCalls({
  /** Fixed while the console runs: nothing it reads changes under it. */
  'app.info': query(noArgs, returns<AppInfo>(), []),
  'app.counts': query(noArgs, returns<Counts>(), ['tasks', 'labels', 'decisions', 'fits', 'imports']),
  /** Runs the check as a job each time it is asked (the console never keeps its answer). */
  'db.checkIntegrity': command(noArgs, returns<IntegrityReport>())
})
