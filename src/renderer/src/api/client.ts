import type { ApiArgs, ApiResults, BridgeApi, ConsoleApi } from '@shared/api'
import { API_METHODS, type ApiMethod } from '@shared/api-methods'
import { ApiError } from '@shared/errors'

/** Unwraps a bridge's envelopes: every call resolves to its result or throws an ApiError. */
export function createClient(bridge: BridgeApi): ConsoleApi {
  const client: Record<string, unknown> = {}
  for (const method of API_METHODS) {
    client[method] = async (args: ApiArgs<ApiMethod>) => {
      const call = bridge[method] as (a: unknown) => ReturnType<BridgeApi[typeof method]>
      const envelope = await call(args)
      if (envelope.ok) return envelope.value as ApiResults[typeof method]
      throw new ApiError(envelope.error.code, envelope.error.message, envelope.error.details)
    }
  }
  return client as ConsoleApi
}
