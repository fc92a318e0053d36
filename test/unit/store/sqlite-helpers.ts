import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/** A temp dir per test, removed afterwards; `dbPath()` names a database file inside it. */
export function useTempDir(): { dir: () => string; dbPath: (name?: string) => string } {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  const dir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'arbiter-store-'))
    dirs.push(d)
    return d
  }
  let current: string | null = null
  afterEach(() => {
    current = null
  })
  return {
    dir,
    dbPath: (name = 'arbiter.db') => {
      if (current === null) current = dir()
      return join(current, name)
    }
  }
}

export function fileSha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

/** A second, raw connection: what another process (or an attacker with sqlite3) could do. */
export function rawDb(path: string, readonly = false): Database.Database {
  const db = new Database(path, { readonly, fileMustExist: true })
  db.pragma('foreign_keys = ON')
  return db
}
