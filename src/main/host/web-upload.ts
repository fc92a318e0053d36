/**
 * `POST /api/imports.upload` on the web host: one slice of a file the browser console uploads
 * (src/shared/contract/upload.ts). Its body is the slice's raw bytes (`application/octet-stream`), handed to
 * the call as it arrives — the server never holds a slice, let alone a file, in memory — and the
 * call's other arguments travel in UPLOAD_HEADER. The host's checks (Host, login, Origin, the tab's
 * session header) have passed before this runs; the content type and the custom header are what
 * a cross-site form cannot send.
 */
import type { IncomingMessage } from 'node:http'
import type { CallContext, ServerHandlers } from '../../shared/api'
import { ApiError, HTTP_STATUS, type Envelope } from '../../shared/errors'
import { MAX_UPLOAD_SLICE_BYTES, UPLOAD_HEADER, uploadSliceSchema } from '../../shared/contract/upload'
import { dispatch } from './dispatch'

export interface SliceReply {
  status: number
  body: Envelope<unknown>
  /** Close the connection after answering: the client declared a body the host will not read. */
  close: boolean
}

const refuse = (status: number, message: string, close = false): SliceReply => ({
  status, close, body: { ok: false, error: { code: 'bad_input', message, details: null } }
})

export async function receiveSlice(req: IncomingMessage, handlers: ServerHandlers, ctx: CallContext): Promise<SliceReply> {
  const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  if (type !== 'application/octet-stream') return refuse(415, 'an upload slice is sent as application/octet-stream')
  const slice = sliceArgs(req.headers[UPLOAD_HEADER.toLowerCase()])
  if (slice === null) return refuse(400, `an upload slice names its upload, file name and offset in the ${UPLOAD_HEADER} header (JSON)`)
  // A declared length over the cap is refused before a byte is read, as web.ts does for JSON calls.
  if (Number(req.headers['content-length'] ?? 0) > MAX_UPLOAD_SLICE_BYTES) return refuse(413, `upload slice over ${MAX_UPLOAD_SLICE_BYTES} bytes`, true)

  const body = cappedBody(req)
  const envelope = await dispatch(handlers, 'imports.upload', { ...slice, chunk: body.pieces }, ctx)
  // What the call did not read (a refused slice) is drained and dropped, so the connection can
  // carry the next call without the server holding it.
  if (!req.readableEnded) req.resume()
  if (body.tooLarge()) return { status: 413, close: false, body: envelope }
  return { status: envelope.ok ? 200 : HTTP_STATUS[envelope.error.code], close: false, body: envelope }
}

/** The header's arguments, or null when absent or not what the schema allows. */
function sliceArgs(header: string | string[] | undefined): unknown {
  if (typeof header !== 'string') return null
  try {
    const parsed = uploadSliceSchema.safeParse(JSON.parse(header))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/**
 * The request body piece by piece, failing once it passes the slice cap (a chunked body has no
 * length to check first) or ends before it is complete (the client went away): either way the
 * upload cuts the slice back off. The request is read without being destroyed when the reader
 * stops early, so the host can still answer on its connection.
 */
function cappedBody(req: IncomingMessage): { pieces: AsyncIterable<Uint8Array>; tooLarge: () => boolean } {
  let over = false
  async function* pieces(): AsyncGenerator<Uint8Array> {
    let size = 0
    try {
      for await (const piece of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        size += piece.length
        if (size > MAX_UPLOAD_SLICE_BYTES) {
          over = true
          throw new ApiError('bad_input', `upload slice over ${MAX_UPLOAD_SLICE_BYTES} bytes`)
        }
        yield piece
      }
    } catch (error) {
      if (error instanceof ApiError) throw error
      throw new ApiError('bad_input', 'the upload slice ended before its body did')
    }
    if (!req.complete) throw new ApiError('bad_input', 'the upload slice ended before its body did')
  }
  return { pieces: pieces(), tooLarge: () => over }
}
