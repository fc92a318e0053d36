/**
 * Window hardening, kept free of `electron` so tests can assert it under plain Node
 * (docs/architecture.md, "Window hardening"). `host/electron.ts` builds its BrowserWindow from these.
 *
 * The one Content-Security-Policy: injected into the built index.html (meta tag), sent as a
 * header by the web host and by the Electron session. Transcripts are hostile text, so no
 * inline script, no eval, no remote origin of any kind.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'"
].join('; ')

/** Extra headers the web host sends with every response. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin'
}

export interface HardenedWebPreferences {
  preload: string
  contextIsolation: true
  sandbox: true
  nodeIntegration: false
  nodeIntegrationInWorker: false
  nodeIntegrationInSubFrames: false
  webSecurity: true
  allowRunningInsecureContent: false
  experimentalFeatures: false
  webviewTag: false
  spellcheck: false
  /** Only in a development build (`devToolsAllowed`). */
  devTools: boolean
}

/**
 * DevTools run any script in the page with the page's rights: a development build has them, a
 * packaged one (what users run, on hostile transcripts) does not.
 */
export function devToolsAllowed(isPackaged: boolean): boolean {
  return !isPackaged
}

export function hardenedWebPreferences(preloadPath: string, isPackaged: boolean): HardenedWebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    spellcheck: false,
    devTools: devToolsAllowed(isPackaged)
  }
}

/** The main window's options; `isPackaged` is Electron's `app.isPackaged`. */
export function mainWindowOptions(preloadPath: string, isPackaged: boolean) {
  return {
    width: 1360,
    height: 880,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Arbiter',
    autoHideMenuBar: true,
    webPreferences: hardenedWebPreferences(preloadPath, isPackaged)
  }
}

/**
 * The only URL the window may show: the built renderer's index.html. Navigation anywhere
 * else is denied (hash routes change only the fragment, which is not a navigation).
 */
export function isAllowedNavigation(target: string, rendererIndexUrl: string): boolean {
  try {
    const t = new URL(target)
    const r = new URL(rendererIndexUrl)
    return t.protocol === r.protocol && t.host === r.host && t.pathname === r.pathname
  } catch {
    return false
  }
}

// ── the window's decisions, as pure functions (host/electron.ts only wires them) ──────────────
// Electron cannot launch in CI, so every choice the hardened window makes is taken here, where
// test/unit/host/electron-checklist.test.ts can exercise it under plain Node.

/**
 * `setWindowOpenHandler`: the app never opens a second window. A link in a transcript is hostile
 * text, so only a well-formed http(s) URL may go to the system browser; `file:`, `javascript:`,
 * `smb:`, custom schemes and anything unparsable are dropped (shell.openExternal would hand them
 * to the OS, which may run them).
 */
export function windowOpenDecision(url: string): { action: 'deny'; openExternal: string | null } {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { action: 'deny', openExternal: null }
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:'
  // Credentials in a link are a phishing device (https://bank.example@evil.example/); refuse them.
  const ok = web && parsed.hostname !== '' && parsed.username === '' && parsed.password === ''
  return { action: 'deny', openExternal: ok ? parsed.href : null }
}

/**
 * The question asked before a link from a transcript leaves for the system browser: transcripts are
 * hostile text, so a click never opens a site unseen. The whole address is shown (its host first, so
 * a long path cannot push it out of sight); Cancel is the default and what Escape answers.
 */
export function externalLinkPrompt(href: string): { message: string; detail: string; buttons: [string, string]; defaultId: 1; cancelId: 1 } {
  const host = new URL(href).host
  return { message: `Open ${host} in your browser?`, detail: href, buttons: ['Open', 'Cancel'], defaultId: 1, cancelId: 1 }
}

/** `will-navigate` / `will-redirect` / `will-frame-navigate`: true when the navigation must be stopped. */
export function shouldBlockNavigation(target: string, rendererIndexUrl: string): boolean {
  return !isAllowedNavigation(target, rendererIndexUrl)
}

/**
 * Session permission requests and checks (camera, microphone, geolocation, notifications,
 * clipboard, HID/serial/USB, fullscreen, openExternal…): the console needs none, so every one is
 * refused, whatever page asks.
 */
export function permissionDecision(permission: string): boolean {
  void permission
  return false
}

/** `will-attach-webview`: the app has no webview (webviewTag is off too); any attach is stopped. */
export function webviewAttachDecision(): 'deny' {
  return 'deny'
}

/**
 * Who may call the contract over IPC: our own window's webContents, from its main frame (never a
 * subframe), while that frame shows our own index.html. Object identity is compared, so the
 * types stay generic and the check runs without Electron.
 */
export function isTrustedSender<C, F extends { url: string }>(facts: {
  sender: C
  ourContents: C
  frame: F | null | undefined
  mainFrame: F | null | undefined
  rendererIndexUrl: string
}): boolean {
  const { sender, ourContents, frame, mainFrame, rendererIndexUrl } = facts
  if (sender !== ourContents || !frame || frame !== mainFrame) return false
  return isAllowedNavigation(frame.url, rendererIndexUrl)
}

/** What an untrusted sender gets back: the contract's envelope, never a handler's result. */
export const UNTRUSTED_SENDER_REPLY = {
  ok: false,
  error: { code: 'unauthorized', message: 'call from an unknown frame', details: null }
} as const

/**
 * Response headers with exactly one Content-Security-Policy, ours: any variant already present
 * (header names are case-insensitive) is dropped, so the enforced policy is the asserted one.
 */
export function withContentSecurityPolicy(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [k, v] of Object.entries(headers ?? {})) if (k.toLowerCase() !== 'content-security-policy') out[k] = v
  out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY]
  return out
}
