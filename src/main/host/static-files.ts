import { readFile, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json'
}

export interface StaticFile {
  body: Buffer
  contentType: string
  immutable: boolean
}

/**
 * Resolves a URL path to a file inside the renderer build, or null. Anything that would
 * leave the root (`..`, encoded slashes, absolute paths, NUL) is refused, so the web host
 * serves no file outside the build.
 */
export async function readStatic(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '')
  const base = resolve(root)
  const full = resolve(base, relative)
  if (!full.startsWith(base + sep)) return null
  try {
    const info = await stat(full)
    if (!info.isFile()) return null
    return {
      body: await readFile(full),
      contentType: CONTENT_TYPES[extname(full)] ?? 'application/octet-stream',
      immutable: relative.startsWith('assets/')
    }
  } catch {
    return null
  }
}
