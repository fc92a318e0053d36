/** Everything the main side pushes to the renderer (docs/architecture.md, "Transports"). */
import type { Topic } from './vocabularies'

export { TOPICS, type Topic } from './vocabularies'

export type ApiEvent =
  | { type: 'changed'; topics: Topic[] }
  | { type: 'job'; jobId: string; kind: string; phase: 'started' | 'running' | 'done' | 'failed'; done: number; total: number; message: string | null }
  | { type: 'fit-landed'; fitId: string }
  /** Someone started empty: every open console's data was replaced (`by`: who; the demo was kept at `demoMovedTo`). */
  | { type: 'database-replaced'; by: string; demoMovedTo: string }
