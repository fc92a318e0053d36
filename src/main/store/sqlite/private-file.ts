/**
 * The database holds every label, blind ones included: its files are the owner's alone. SQLite
 * creates a new file 0644 (less the umask), and gives a database's -wal and -shm files the mode of
 * the database itself, so creating the file empty at 0600 first makes all three private. A backup
 * (VACUUM INTO accepts an empty file) is created the same way.
 */
import { chmodSync, closeSync, openSync } from 'node:fs'

export const PRIVATE_FILE_MODE = 0o600

/** Creates `path` empty and owner-only unless it exists; an error is left to SQLite's own open to report. */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE))
  } catch {
    // It exists (never changed here), or cannot be created: SQLite's open says why.
  }
}

/**
 * Makes a file SQLite has just created owner-only, by path: chmod opens no descriptor, so it cannot
 * drop a POSIX lock SQLite holds on the file (closing any descriptor of a file would).
 */
export function makePrivate(path: string): void {
  chmodSync(path, PRIVATE_FILE_MODE)
}
