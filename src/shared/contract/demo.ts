/** The demo database: whether this is it, and leaving it for an empty one. */
import { command, defineCalls, noArgs, query, returns } from './call'

export interface DemoStatus {
  demo: boolean
  createdAt: string | null
  seed: number | null
}

export interface StartEmptyResult {
  dbLocation: string
  /** Where the demo database was moved (kept, not deleted). */
  demoMovedTo: string
}

export const demoCalls = defineCalls({
  'demo.status': query(noArgs, returns<DemoStatus>(), ['tasks', 'settings']),
  'demo.startEmpty': command(noArgs, returns<StartEmptyResult>())
})
