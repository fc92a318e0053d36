/**
 * The app-wide guard, installed on every webContents as Electron creates it
 * (`app.on('web-contents-created')`, host/electron.ts): whatever made a webContents — our window, a
 * window some page managed to open, a devtools or a webview frame — it opens no window, leaves the
 * app's own index.html for no other page, and attaches no <webview>. The main window then installs
 * its own window-open handler over this default (it offers a transcript's link to the system browser,
 * after asking). Kept free of `electron` so test/unit/host/web-contents-guard.test.ts runs it under Node.
 */
import { shouldBlockNavigation, webviewAttachDecision } from './hardening'

export interface WebContentsGuard {
  /** `setWindowOpenHandler`'s answer: never a new window. */
  windowOpen(url: string): { action: 'deny' }
  /** `will-navigate`, `will-redirect`, `will-frame-navigate`: true when the navigation must be stopped. */
  blockNavigation(url: string): boolean
  /** `will-attach-webview`. */
  attachWebview(): 'deny'
}

export function webContentsGuard(rendererIndexUrl: string): WebContentsGuard {
  return {
    windowOpen: () => ({ action: 'deny' }),
    blockNavigation: (url) => shouldBlockNavigation(url, rendererIndexUrl),
    attachWebview: webviewAttachDecision
  }
}
