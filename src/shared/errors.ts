/** The error envelope every transport carries (docs/architecture.md, "API envelope"). */
export const API_ERROR_CODES = ['bad_input', 'conflict', 'not_found', 'unauthorized', 'internal'] as const
export type ApiErrorCode = (typeof API_ERROR_CODES)[number]

export interface ApiErrorBody {
  code: ApiErrorCode
  message: string
  details: unknown
}

/** What a call resolves to on the wire: Electron's invoke drops custom error fields, so errors travel as data. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ApiErrorBody }

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details: unknown = null
  ) {
    super(message)
    this.name = 'ApiError'
  }

  toBody(): ApiErrorBody {
    return { code: this.code, message: this.message, details: this.details }
  }
}

export const HTTP_STATUS: Record<ApiErrorCode, number> = {
  bad_input: 400,
  conflict: 409,
  not_found: 404,
  unauthorized: 401,
  internal: 500
}

export const CLI_EXIT: Record<ApiErrorCode, number> = {
  bad_input: 2,
  conflict: 1,
  not_found: 2,
  unauthorized: 1,
  internal: 1
}
