/**
 * Window hardening, kept free of `electron` so tests can assert it under plain Node
 * (DESIGN.md, "Window hardening"). `host/electron.ts` builds its BrowserWindow from these.
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
}

export function hardenedWebPreferences(preloadPath: string): HardenedWebPreferences {
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
    spellcheck: false
  }
}

export function mainWindowOptions(preloadPath: string) {
  return {
    width: 1360,
    height: 880,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Arbiter',
    autoHideMenuBar: true,
    webPreferences: hardenedWebPreferences(preloadPath)
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
