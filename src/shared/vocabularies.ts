/**
 * The project's closed vocabularies, each defined once: the store's checks, the call
 * schemas, the readers and the CLI all take their lists from here. The applied migrations spell
 * some of them as SQL literals (a migration never changes once applied); a unit test
 * (test/unit/vocabularies.test.ts) holds these lists equal to those literals.
 */

/** Who gave a label: drawn at random by Calibrate, or escalated from the queue (docs/engine.md §10). */
export const LABEL_SOURCES = ['random', 'escalation'] as const
export type LabelSource = (typeof LABEL_SOURCES)[number]

/** A task's state: a live human label makes it `human`; otherwise the current fit's decision. */
export const TASK_STATES = ['act', 'defer', 'human'] as const
export type TaskState = (typeof TASK_STATES)[number]

/** What a fit decided for a task (a task's state before a human label). */
export const DECISION_KINDS = ['act', 'defer'] as const
export type DecisionKind = (typeof DECISION_KINDS)[number]

export const QUEUE_SORTS = ['gap', 'age', 'disagreement', 'group'] as const
export type QueueSort = (typeof QUEUE_SORTS)[number]

/** What a write changed; the service turns these into `changed{topics}` events. */
export const TOPICS = ['tasks', 'labels', 'settings', 'fits', 'decisions', 'imports', 'audit'] as const
export type Topic = (typeof TOPICS)[number]

/** The shell a call came through; recorded in each audit row. */
export const SHELLS = ['electron', 'web', 'cli'] as const
export type Shell = (typeof SHELLS)[number]

/** An import's life: staged (invisible), published, or abandoned (swept at the next open). */
export const IMPORT_STATES = ['staged', 'published', 'abandoned'] as const
export type ImportState = (typeof IMPORT_STATES)[number]
