import { join } from 'node:path'
import { makeDataFolder } from './paths'
import { electronNativeBinding, type BindingLocation } from './native-binding'
import { createService, type Service, type ServiceOptions } from './service'
import { createDemoDatabase, isFirstLaunch } from './service/demo'
import { openStore } from './store'

export interface DesktopCore {
  service: Service
  dbLocation: string
  nativeBinding: string
}

/**
 * Everything the desktop app does before it opens a window, kept free of `electron` so a test
 * can check it under Node: the database in the data folder, opened through the Electron-ABI
 * better-sqlite3 binary (its `nativeBinding` option), and the service over it.
 */
export async function startDesktopCore(
  opts: { dataDir: string; demoIfMissing?: boolean; pickFile?: ServiceOptions['pickFile'] } & BindingLocation,
  resolveBinding: (loc: BindingLocation) => string = electronNativeBinding
): Promise<DesktopCore> {
  makeDataFolder(opts.dataDir)
  const dbLocation = join(opts.dataDir, 'arbiter.db')
  const nativeBinding = resolveBinding(opts)
  // First launch (no database in the default data folder): the demo council, so every screen has data.
  if (isFirstLaunch(dbLocation, opts.demoIfMissing)) await createDemoDatabase(dbLocation, { nativeBinding, shell: 'electron' })
  const store = await openStore(dbLocation, { nativeBinding })
  const service = await createService({ store, dbLocation, nativeBinding, shell: 'electron', pickFile: opts.pickFile })
  return { service, dbLocation, nativeBinding }
}
