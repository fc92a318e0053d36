/**
 * The desktop app's main process. Thin on purpose: what it decides lives in electron-free
 * modules (desktop.ts, host/hardening.ts) that tests run under Node.
 */
import { app, dialog } from 'electron'
import { join } from 'node:path'
import { startDesktopCore, type DesktopCore } from './desktop'
import { guardEveryWebContents, openMainWindow, pickImportFile } from './host/electron'
import { defaultDataDir } from './paths'

const rendererIndex = join(__dirname, '../renderer/index.html')

app.setName('Arbiter')
app.enableSandbox()
// Before any window: every webContents, ours or not, is guarded from the moment it exists.
guardEveryWebContents(rendererIndex)

let core: DesktopCore | null = null

async function launch(): Promise<void> {
  core = await startDesktopCore({
    dataDir: defaultDataDir(), appRoot: app.getAppPath(), resourcesPath: process.resourcesPath, isPackaged: app.isPackaged, pickFile: pickImportFile
  })
  openMainWindow({
    handlers: core.service.handlers,
    subscribe: core.service.subscribe,
    context: core.service.context,
    preloadPath: join(__dirname, '../preload/index.js'),
    rendererIndex
  })
}

if (!app.requestSingleInstanceLock()) app.quit()

app.whenReady().then(launch).catch((error: unknown) => {
  dialog.showErrorBox('Arbiter could not start', error instanceof Error ? error.message : String(error))
  app.quit()
})

app.on('window-all-closed', () => app.quit())
app.on('will-quit', () => {
  void core?.service.close()
})
