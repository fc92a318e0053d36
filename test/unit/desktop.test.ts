import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startDesktopCore } from '../../src/main/desktop'
import { electronNativeBinding } from '../../src/main/native-binding'
import { defaultDataDir } from '../../src/main/paths'

const nodeBinding = join(__dirname, '../../node_modules/better-sqlite3/build/Release/better_sqlite3.node')

describe('desktop core (what src/main/index.ts runs before opening a window)', () => {
  it('opens the database through the binding it resolved (better-sqlite3 nativeBinding)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-desk-'))
    try {
      // Under Node the Node-ABI binary stands in for the Electron one: the point is that the
      // resolved path is the one better-sqlite3 loads.
      const core = await startDesktopCore({ dataDir: dir, appRoot: '/app', resourcesPath: '/res', isPackaged: false }, () => nodeBinding)
      expect(core.nativeBinding).toBe(nodeBinding)
      expect(core.dbLocation).toBe(join(dir, 'arbiter.db'))
      expect(await core.service.handlers['app.info']({}, core.service.context())).toMatchObject({ shell: 'electron', dbLocation: core.dbLocation })
      await core.service.close()

      // A bogus binding fails to open: proof the option is honoured, not ignored.
      await expect(
        startDesktopCore({ dataDir: dir, appRoot: '/app', resourcesPath: '/res', isPackaged: false }, () => join(dir, 'missing.node'))
      ).rejects.toThrow()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('looks for the Electron binding in native/ (dev) or resources (packaged), and says how to build it', () => {
    const seen: string[] = []
    const exists = (p: string) => (seen.push(p), true)
    expect(electronNativeBinding({ appRoot: '/repo', resourcesPath: '/res', isPackaged: false }, exists)).toBe('/repo/native/electron/better_sqlite3.node')
    expect(electronNativeBinding({ appRoot: '/repo', resourcesPath: '/res', isPackaged: true }, exists)).toBe('/res/native/better_sqlite3.node')
    expect(() => electronNativeBinding({ appRoot: '/repo', resourcesPath: '/res', isPackaged: false }, () => false)).toThrow(/npm run build:native-electron/)
  })

  it('shares one data folder between the desktop app and the CLI', () => {
    expect(defaultDataDir({ ARBITER_HOME: '/data/arb' }, 'linux')).toBe('/data/arb')
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/Arbiter')
    expect(defaultDataDir({ APPDATA: 'C:/Users/a/AppData/Roaming' }, 'win32')).toBe(join('C:/Users/a/AppData/Roaming', 'Arbiter'))
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/Arbiter$/)
  })
})
