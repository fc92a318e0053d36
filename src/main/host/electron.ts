/**
 * The desktop shell: a hardened BrowserWindow and the contract over IPC. One of the three
 * places allowed to import `electron`; everything it decides lives in electron-free modules
 * (hardening.ts, dispatch.ts) that tests exercise under Node.
 */
import { app, BrowserWindow, dialog, ipcMain, session, shell, type IpcMainInvokeEvent, type WebContents } from 'electron'
import { pathToFileURL } from 'node:url'
import type { CallContext, ServerHandlers } from '../../shared/api'
import { API_METHODS, IPC_EVENT_CHANNEL, ipcChannel } from '../../shared/api-methods'
import type { ApiEvent } from '../../shared/events'
import { IMPORT_FILE_EXTENSIONS } from '../../shared/contract/upload'
import { dispatch } from './dispatch'
import {
  devToolsAllowed, externalLinkPrompt, isTrustedSender, mainWindowOptions, permissionDecision, shouldBlockNavigation, UNTRUSTED_SENDER_REPLY,
  webviewAttachDecision, windowOpenDecision, withContentSecurityPolicy
} from './hardening'
import { webContentsGuard } from './web-contents-guard'

export interface DesktopShellOptions {
  handlers: ServerHandlers
  subscribe: (listener: (event: ApiEvent) => void) => () => void
  context: () => CallContext
  preloadPath: string
  rendererIndex: string
}

export function openMainWindow(opts: DesktopShellOptions): BrowserWindow {
  const indexUrl = pathToFileURL(opts.rendererIndex).toString()
  lockDownSession()

  const win = new BrowserWindow(mainWindowOptions(opts.preloadPath, app.isPackaged))
  const contents = win.webContents
  contents.setWindowOpenHandler(({ url }) => {
    // Links in transcripts never open inside the app; a plain http(s) URL goes to the system
    // browser once the user has seen it and said so.
    const decision = windowOpenDecision(url)
    if (decision.openExternal !== null) void openExternalAfterAsking(win, decision.openExternal)
    return { action: decision.action }
  })
  // Every way a frame can leave our index.html: a link, a redirect, a subframe navigation.
  contents.on('will-navigate', (event) => {
    if (shouldBlockNavigation(event.url, indexUrl)) event.preventDefault()
  })
  contents.on('will-redirect', (event) => {
    if (shouldBlockNavigation(event.url, indexUrl)) event.preventDefault()
  })
  contents.on('will-frame-navigate', (event) => {
    if (shouldBlockNavigation(event.url, indexUrl)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => {
    if (webviewAttachDecision() === 'deny') event.preventDefault()
  })

  registerIpc(opts, contents, indexUrl)
  const unsubscribe = opts.subscribe((event) => {
    if (!contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, event)
  })
  win.on('closed', () => {
    unsubscribe()
    for (const m of API_METHODS) ipcMain.removeHandler(ipcChannel(m))
  })
  win.once('ready-to-show', () => win.show())
  void win.loadURL(indexUrl)
  return win
}

/**
 * The app-wide guard (web-contents-guard.ts), on every webContents as it is created, before any
 * page loads in it: whatever opened it, it opens no window, stays on our index.html and attaches no
 * webview. Installed before the first window; the main window adds its own handlers on top.
 */
export function guardEveryWebContents(rendererIndex: string): void {
  const guard = webContentsGuard(pathToFileURL(rendererIndex).toString())
  const devTools = devToolsAllowed(app.isPackaged)
  app.on('web-contents-created', (_created, contents) => {
    contents.setWindowOpenHandler(({ url }) => guard.windowOpen(url))
    contents.on('will-navigate', (event) => {
      if (guard.blockNavigation(event.url)) event.preventDefault()
    })
    contents.on('will-redirect', (event) => {
      if (guard.blockNavigation(event.url)) event.preventDefault()
    })
    contents.on('will-frame-navigate', (event) => {
      if (guard.blockNavigation(event.url)) event.preventDefault()
    })
    contents.on('will-attach-webview', (event) => {
      if (guard.attachWebview() === 'deny') event.preventDefault()
    })
    // A packaged build's windows have no DevTools (webPreferences.devTools); any other way in is shut.
    if (!devTools) contents.on('devtools-opened', () => contents.closeDevTools())
  })
}

async function openExternalAfterAsking(win: BrowserWindow, href: string): Promise<void> {
  const { response } = await dialog.showMessageBox(win, { type: 'question', ...externalLinkPrompt(href) })
  if (response === 0) await shell.openExternal(href)
}

/**
 * The file to import, chosen in the native open dialog over the app's window (`imports.pick`):
 * its path stays in this process, so the renderer, which shows hostile transcripts, never names one.
 */
export async function pickImportFile(): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Import a file',
    properties: ['openFile'],
    filters: [{ name: 'Traces, debate rounds and labels', extensions: [...IMPORT_FILE_EXTENSIONS] }, { name: 'All files', extensions: ['*'] }]
  }
  const parent = BrowserWindow.getFocusedWindow()
  const chosen = parent === null ? await dialog.showOpenDialog(options) : await dialog.showOpenDialog(parent, options)
  return chosen.canceled || chosen.filePaths.length === 0 ? null : chosen.filePaths[0]
}

/** Only our own window's main frame, showing our own index.html, may call the contract. */
function registerIpc(opts: DesktopShellOptions, contents: WebContents, indexUrl: string): void {
  for (const method of API_METHODS) {
    ipcMain.handle(ipcChannel(method), async (event: IpcMainInvokeEvent, args: unknown) => {
      const trusted = isTrustedSender({
        sender: event.sender, ourContents: contents, frame: event.senderFrame, mainFrame: contents.mainFrame, rendererIndexUrl: indexUrl
      })
      if (!trusted) return UNTRUSTED_SENDER_REPLY
      return dispatch(opts.handlers, method, args, opts.context())
    })
  }
}

function lockDownSession(): void {
  const ses = session.defaultSession
  ses.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionDecision(permission)))
  ses.setPermissionCheckHandler((_wc, permission) => permissionDecision(permission))
  ses.setDevicePermissionHandler((details) => permissionDecision(details.deviceType))
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) })
  })
}
