/** Everything the main side pushes to the renderer (DESIGN.md, "Transports"). */
export const TOPICS = ['tasks', 'labels', 'settings', 'fits', 'decisions', 'imports', 'audit'] as const
export type Topic = (typeof TOPICS)[number]

export type ApiEvent =
  | { type: 'changed'; topics: Topic[] }
  | { type: 'job'; jobId: string; kind: string; phase: 'started' | 'running' | 'done' | 'failed'; done: number; total: number; message: string | null }
  | { type: 'fit-landed'; fitId: string }
