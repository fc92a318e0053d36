/**
 * How a console hands the server a file to import, then names it by its upload id in
 * `imports.run`:
 * - the browser console sends the file's bytes in slices (`imports.upload`). Each slice is one
 *   request whose body is the slice itself: a string or a buffer of the whole file would not fit
 *   in the page (V8 caps a string far below the server's per-file cap), and over HTTP/1.1 a browser
 *   does not stream one request body, so a file is many bodies. Each slice names the bytes sent
 *   before it (`offset`): a retried or reordered slice is refused, never appended twice;
 * - the desktop app asks its main process to open the native file dialog (`imports.pick`): the
 *   chosen file is read where it is, and the window never names a path.
 */
import { z } from 'zod'

/** What the Import screen's file input and the desktop app's open dialog offer. */
export const IMPORT_FILE_EXTENSIONS = ['jsonl', 'json', 'csv', 'tsv', 'txt'] as const

/** The bytes of one slice the Import screen sends. */
export const UPLOAD_SLICE_BYTES = 8 * 1024 ** 2
/** A smaller slice size (bytes) a test sets in the page's sessionStorage, so a small file takes several slices. */
export const UPLOAD_SLICE_BYTES_KEY = 'arbiter.upload-slice-bytes'
/** The most one slice may carry: the web host's body cap on `imports.upload`, room above the default slice. */
export const MAX_UPLOAD_SLICE_BYTES = 16 * 1024 ** 2

/** Over HTTP the slice's bytes are the body, and the call's other arguments travel in this header, as JSON. */
export const UPLOAD_HEADER = 'X-Arbiter-Upload'

/**
 * The bytes of a slice: the renderer's Blob (its slice of the file, read by the browser as it
 * sends), bytes (IPC, in-process callers), or the request body as it arrives (the web host).
 */
export type UploadBytes = Blob | Uint8Array | AsyncIterable<Uint8Array>

const isAsyncIterable = (v: unknown): v is AsyncIterable<Uint8Array> =>
  typeof v === 'object' && v !== null && typeof (v as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'

/** A size known up front is checked here; a stream is counted by whoever reads it (the web host). */
const sizeOf = (v: Blob | Uint8Array): number => (v instanceof Uint8Array ? v.byteLength : v.size)

const uploadBytesSchema = z
  .custom<UploadBytes>((v) => v instanceof Uint8Array || (typeof Blob !== 'undefined' && v instanceof Blob) || isAsyncIterable(v), 'chunk must be bytes')
  .refine((v) => isAsyncIterable(v) || sizeOf(v) <= MAX_UPLOAD_SLICE_BYTES, `a slice carries at most ${MAX_UPLOAD_SLICE_BYTES} bytes`)

/** Which upload a slice belongs to (null: a new one) and where in the file it starts. */
export const uploadSliceSchema = z
  .object({
    uploadId: z.string().uuid().nullable().default(null),
    fileName: z.string().min(1).max(255),
    /** The bytes of the file sent before this slice: the upload must hold exactly that many. */
    offset: z.number().int().min(0)
  })
  .strict()
export type UploadSlice = z.infer<typeof uploadSliceSchema>

export const uploadInputSchemas = {
  'imports.upload': uploadSliceSchema.extend({ chunk: uploadBytesSchema }).strict(),
  'imports.pick': z.object({}).strict()
}

export interface UploadResult {
  uploadId: string
  /** The bytes the upload holds: the next slice's offset. */
  bytes: number
}

/** A file the user chose in the desktop app's dialog, registered as an upload of their own. */
export interface PickedFile {
  uploadId: string
  /** Its name, never its path. */
  fileName: string
  bytes: number
}

/**
 * The header's value: JSON with every character past ASCII escaped (`\uXXXX`, still JSON), since
 * a header carries Latin-1 only and a file's name may be in any script.
 */
export function uploadHeaderValue(slice: z.input<typeof uploadSliceSchema>): string {
  return JSON.stringify(slice).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
