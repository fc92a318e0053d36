/** The errors of a decision page both backends raise against their tasks. */
import { StoreError } from './contract'

/** A task given a second decision in one fit (in one page, or across pages). */
export const twice = (taskId: string): StoreError => new StoreError('bad_input', `task ${taskId} appears twice in the decisions`)

/** A posterior whose keys are not exactly its task's candidates (each backend checks this against the task). */
export const badPosterior = (taskId: string, candidates: readonly string[], keys: readonly string[], fitId: string): StoreError =>
  new StoreError('bad_input', `the posterior of task ${taskId} must give each of its candidates (${candidates.join(', ')}) a probability, and nothing else`, {
    taskId, fitId, candidates: [...candidates], keys: [...keys]
  })
