import { apiInputSchemas, type CallContext, type ServerHandlers } from '../../shared/api'
import { API_METHODS, type ApiMethod } from '../../shared/api-methods'
import { API_ERROR_CODES, type ApiErrorBody, type ApiErrorCode, type Envelope } from '../../shared/errors'

const METHOD_SET: ReadonlySet<string> = new Set(API_METHODS)

export function isApiMethod(name: string): name is ApiMethod {
  return METHOD_SET.has(name)
}

/**
 * Validates one call's argument with the contract's schema, runs the handler and wraps the
 * outcome in the envelope. Both transports (IPC and HTTP) go through here, so validation and
 * error mapping cannot differ between the desktop app and the browser console.
 */
export async function dispatch(
  handlers: ServerHandlers,
  method: string,
  rawArgs: unknown,
  ctx: CallContext
): Promise<Envelope<unknown>> {
  if (!isApiMethod(method)) return fail('not_found', `unknown call ${JSON.stringify(method)}`)
  const parsed = apiInputSchemas[method].safeParse(rawArgs ?? {})
  if (!parsed.success) {
    return fail('bad_input', `invalid arguments for ${method}`, parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })))
  }
  try {
    const handler = handlers[method] as (args: unknown, ctx: CallContext) => Promise<unknown>
    return { ok: true, value: await handler(parsed.data, ctx) }
  } catch (error) {
    return { ok: false, error: toErrorBody(error) }
  }
}

/** Errors that carry one of the contract's codes keep it; anything else is internal. */
export function toErrorBody(error: unknown): ApiErrorBody {
  if (error && typeof error === 'object') {
    const e = error as { code?: unknown; message?: unknown; details?: unknown }
    if (typeof e.code === 'string' && (API_ERROR_CODES as readonly string[]).includes(e.code)) {
      return { code: e.code as ApiErrorCode, message: String(e.message ?? e.code), details: e.details ?? null }
    }
  }
  console.error('[arbiter] internal error:', error)
  return { code: 'internal', message: 'internal error (see the main process log)', details: null }
}

function fail(code: ApiErrorCode, message: string, details: unknown = null): Envelope<never> {
  return { ok: false, error: { code, message, details } }
}
