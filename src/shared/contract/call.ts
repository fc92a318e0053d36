/**
 * How a domain file declares its calls. Each call names the zod schema of its one argument object,
 * its result type (carried at compile time only) and its kind:
 * - a query answers from the data, and the console may keep the answer (a react-query cache entry).
 *   It names the topics its answer depends on: a `changed` event naming one of them is what makes
 *   the console ask again, so these lists are the whole of the console's live-update rule;
 * - a command does something (records a label, runs a fit, writes a file, runs a check) and the
 *   console never keeps its answer. It names no topics: what it changed reaches every console as
 *   the event its commit sends.
 */
import { z } from 'zod'
import type { ApiMethod } from '../api-methods'
import type { Topic } from '../vocabularies'

declare const resultType: unique symbol

/** A call's result type, for the compiler only (there is nothing to check at run time). */
export interface Returns<R> {
  readonly [resultType]?: R
}

const RETURNS: Returns<never> = Object.freeze({})

/** `returns<QueuePageResult>()`: names a call's result type. */
export function returns<R>(): Returns<R> {
  return RETURNS as Returns<R>
}

export interface QueryCall<I extends z.ZodType = z.ZodType, R = unknown> {
  kind: 'query'
  input: I
  result: Returns<R>
  /** The topics the answer depends on; none for an answer the console never asks again (fixed, or asked once). */
  reads: readonly Topic[]
}

export interface CommandCall<I extends z.ZodType = z.ZodType, R = unknown> {
  kind: 'command'
  input: I
  result: Returns<R>
  reads: readonly []
}

export type Call = QueryCall | CommandCall

export function query<I extends z.ZodType, R>(input: I, result: Returns<R>, reads: readonly Topic[]): QueryCall<I, R> {
  return { kind: 'query', input, result, reads }
}

export function command<I extends z.ZodType, R>(input: I, result: Returns<R>): CommandCall<I, R> {
  return { kind: 'command', input, result, reads: [] }
}

/** A domain's calls: only names the method list knows (api.ts checks the union is all of them). */
export function defineCalls<T extends { [M in keyof T]: M extends ApiMethod ? Call : never }>(calls: T): T {
  return calls
}

export type ResultOf<C> = C extends { result: Returns<infer R> } ? R : never

/** The argument of a call that takes none. */
export const noArgs = z.object({}).strict()

/** A task, label or fit id as a call names it. */
export const id = z.string().min(1).max(512)
