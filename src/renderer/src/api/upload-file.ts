import type { ConsoleApi } from '@shared/api'
import { UPLOAD_SLICE_BYTES, UPLOAD_SLICE_BYTES_KEY } from '@shared/contract/upload'

const MIN_SLICE_BYTES = 64 * 1024

/** The bytes of one slice: UPLOAD_SLICE_BYTES, or a smaller size a test set (never under 64 KiB). */
function sliceBytes(): number {
  let asked: number | null = null
  try {
    asked = Number(window.sessionStorage.getItem(UPLOAD_SLICE_BYTES_KEY) ?? NaN)
  } catch {
    // Storage disabled: the default size.
  }
  return asked !== null && Number.isInteger(asked) && asked >= MIN_SLICE_BYTES && asked < UPLOAD_SLICE_BYTES ? asked : UPLOAD_SLICE_BYTES
}

/**
 * Uploads `file` slice by slice (`imports.upload`, src/shared/contract/upload.ts) and returns its upload id.
 * Each slice is a `Blob.slice` of the file, which the browser reads from disk as it sends: the page
 * never holds the file, whatever its size. An empty file is one empty slice.
 */
export async function uploadFile(api: ConsoleApi, file: File, onProgress: (sent: number, total: number) => void): Promise<string> {
  const size = sliceBytes()
  let uploadId: string | null = null
  let offset = 0
  do {
    const chunk = file.slice(offset, offset + size)
    const up = await api['imports.upload']({ uploadId, fileName: file.name, offset, chunk })
    if (up.bytes !== offset + chunk.size) throw new Error(`the server holds ${up.bytes} bytes of ${file.name}, not ${offset + chunk.size}`)
    uploadId = up.uploadId
    offset = up.bytes
    onProgress(offset, file.size)
  } while (offset < file.size)
  return uploadId
}
