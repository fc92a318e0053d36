/** The demo database: whether this is it, and leaving it for an empty one. */
import { command, defineCalls, noArgs, query, returns } from './call'

export interface DemoStatus {
  demo: boolean
  createdAt: string | null
  seed: number | null
  /**
   * Why this caller may not start empty here (null: they may): not a demo, a team's login, a
   * PostgreSQL database, or real data imported since. The server refuses the call for the same reason.
   */
  startEmptyRefusal: string | null
}

export interface StartEmptyResult {
  dbLocation: string
  /** Where the demo database was moved (kept, not deleted). */
  demoMovedTo: string
}

export const demoCalls = defineCalls({
  'demo.status': query(noArgs, returns<DemoStatus>(), ['tasks', 'settings', 'imports']),
  'demo.startEmpty': command(noArgs, returns<StartEmptyResult>())
})
