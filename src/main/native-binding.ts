import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** Where `npm run build:native-electron` writes better-sqlite3 compiled for Electron's ABI. */
export const ELECTRON_BINDING_RELATIVE = join('native', 'electron', 'better_sqlite3.node')

export interface BindingLocation {
  appRoot: string
  resourcesPath: string
  isPackaged: boolean
}

/**
 * The desktop shell loads better-sqlite3 through its `nativeBinding` option from a binary
 * built for Electron, while Node (tests, CLI, `serve`) keeps the one npm built for Node: both
 * work in any order, with no rebuilding back and forth.
 * @throws Error saying which command builds the binding when it is missing.
 */
export function electronNativeBinding(loc: BindingLocation, exists: (p: string) => boolean = existsSync): string {
  const path = loc.isPackaged ? join(loc.resourcesPath, 'native', 'better_sqlite3.node') : join(loc.appRoot, ELECTRON_BINDING_RELATIVE)
  if (!exists(path)) {
    throw new Error(
      loc.isPackaged
        ? `Arbiter is missing its SQLite module (${path}); reinstall the app.`
        : `better-sqlite3 for Electron is missing (${path}). Run \`npm run build:native-electron\` once (needs internet), then \`npm start\`.`
    )
  }
  return path
}
