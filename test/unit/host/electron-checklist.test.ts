/**
 * Electron's security checklist (electronjs.org/docs/latest/tutorial/security), item by item, from
 * what can be checked without launching Electron (it cannot run in CI): the window's options, the
 * pure decisions host/electron.ts delegates to (host/hardening.ts), a static guard that
 * electron.ts really installs each handler, and the built preload. hardening.test.ts covers the
 * CSP string, the built index.html and the preload's exposed call list; this file complements it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import {
  CONTENT_SECURITY_POLICY, externalLinkPrompt, isTrustedSender, mainWindowOptions, permissionDecision, shouldBlockNavigation, UNTRUSTED_SENDER_REPLY,
  webviewAttachDecision, windowOpenDecision, withContentSecurityPolicy
} from '../../../src/main/host/hardening'
import { IPC_EVENT_CHANNEL } from '../../../src/shared/api-methods'

const root = join(__dirname, '../../..')
const INDEX = 'file:///opt/arbiter/resources/app.asar/out/renderer/index.html'

describe('checklist 2–4, 6, 8–10: the window’s webPreferences', () => {
  const prefs = mainWindowOptions('/opt/arbiter/out/preload/index.js', true).webPreferences as unknown as Record<string, unknown>

  it('isolates the context, sandboxes the renderer and keeps Node out of every frame and worker', () => {
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false
    })
  })

  it('keeps web security on and insecure content, experimental features, Blink flags and webviews off', () => {
    expect(prefs).toMatchObject({ webSecurity: true, allowRunningInsecureContent: false, experimentalFeatures: false, webviewTag: false })
    // Electron's defaults would be fine, but an explicit `enableBlinkFeatures` is checklist item 10.
    expect(prefs).not.toHaveProperty('enableBlinkFeatures')
    // Every preference is one the checklist reviews or a harmless UI one: an unknown key fails here.
    expect(Object.keys(prefs).sort()).toEqual([
      'allowRunningInsecureContent', 'contextIsolation', 'devTools', 'experimentalFeatures', 'nodeIntegration', 'nodeIntegrationInSubFrames',
      'nodeIntegrationInWorker', 'preload', 'sandbox', 'spellcheck', 'webSecurity', 'webviewTag'
    ])
  })

  it('has no DevTools in a packaged build, and keeps them in a development one', () => {
    expect(prefs.devTools).toBe(false)
    expect(mainWindowOptions('/dev/arbiter/out/preload/index.js', false).webPreferences.devTools).toBe(true)
  })
})

describe('checklist 7: the session sends exactly our CSP', () => {
  it('sets our policy on a response without one, and keeps the other headers', () => {
    expect(withContentSecurityPolicy(undefined)).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
    expect(withContentSecurityPolicy({ 'X-Test': ['1'] })).toEqual({ 'X-Test': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
  })

  it('replaces any other policy, whatever the header’s case, so the enforced one is the asserted one', () => {
    const out = withContentSecurityPolicy({ 'content-security-policy': ["default-src *"], 'CONTENT-SECURITY-POLICY': ["script-src 'unsafe-eval'"] })
    expect(out).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
  })
})

describe('checklist 13: navigation', () => {
  it('lets the window stay on its own index.html (hash routes, queries) and stops everything else', () => {
    for (const url of [INDEX, `${INDEX}#/review/t-1`, `${INDEX}?x=1#/queue`]) expect(shouldBlockNavigation(url, INDEX), url).toBe(false)
    const away = [
      'https://evil.example/', 'http://127.0.0.1:8080/', 'file:///etc/passwd', 'file:///opt/arbiter/resources/app.asar/out/renderer/other.html',
      'file://evil.example/opt/arbiter/resources/app.asar/out/renderer/index.html', 'javascript:alert(1)', 'data:text/html,<script>1</script>',
      'about:blank', 'chrome://gpu', 'devtools://devtools/bundled/inspector.html', '', 'not a url'
    ]
    for (const url of away) expect(shouldBlockNavigation(url, INDEX), url).toBe(true)
  })
})

describe('checklist 14–15: new windows and shell.openExternal', () => {
  it('denies every new window', () => {
    for (const url of ['https://example.org/', INDEX, 'about:blank', 'javascript:open()', '']) expect(windowOpenDecision(url).action).toBe('deny')
  })

  it('hands only a plain http(s) URL to the system browser', () => {
    expect(windowOpenDecision('https://example.org/paper?id=1#s2').openExternal).toBe('https://example.org/paper?id=1#s2')
    expect(windowOpenDecision('HTTP://Example.org').openExternal).toBe('http://example.org/')
  })

  it('asks before a link leaves for the system browser, naming its host and the whole address; Cancel is the default', () => {
    const long = `https://evil.example/${'a'.repeat(300)}`
    expect(externalLinkPrompt(long)).toEqual({ message: 'Open evil.example in your browser?', detail: long, buttons: ['Open', 'Cancel'], defaultId: 1, cancelId: 1 })
    expect(externalLinkPrompt('https://xn--80ak6aa92e.com/').message).toBe('Open xn--80ak6aa92e.com in your browser?') // punycode, never a look-alike
  })

  it('never hands a file, script, UNC, custom-scheme or credential-bearing URL to the OS', () => {
    const hostile = [
      'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'vbscript:msgbox(1)', 'smb://evil.example/share', '\\\\evil.example\\share',
      'ms-msdt:/id PCWDiagnostic', 'search-ms:query=x', 'mailto:a@example.org', 'ftp://example.org/', 'https://bank.example@evil.example/',
      'https://user:pass@evil.example/', 'not a url', ''
    ]
    for (const url of hostile) expect(windowOpenDecision(url).openExternal, url).toBeNull()
  })
})

describe('checklist 5 and 11: permissions and webviews', () => {
  it('refuses every permission request and check, including device access', () => {
    const permissions = [
      'media', 'geolocation', 'notifications', 'midi', 'midiSysex', 'pointerLock', 'fullscreen', 'openExternal', 'clipboard-read',
      'clipboard-sanitized-write', 'display-capture', 'mediaKeySystem', 'idle-detection', 'window-management', 'storage-access',
      'top-level-storage-access', 'fileSystem', 'keyboardLock', 'speaker-selection', 'hid', 'serial', 'usb', 'unknown'
    ]
    for (const p of permissions) expect(permissionDecision(p), p).toBe(false)
  })

  it('stops every webview attach', () => {
    expect(webviewAttachDecision()).toBe('deny')
  })
})

describe('checklist 17: the IPC sender', () => {
  const ours = { id: 'our-contents' }
  const mainFrame = { url: `${INDEX}#/queue` }
  const base = { sender: ours, ourContents: ours, frame: mainFrame, mainFrame, rendererIndexUrl: INDEX }

  it('trusts our window’s main frame while it shows our index.html', () => {
    expect(isTrustedSender(base)).toBe(true)
  })

  it('refuses another webContents, a subframe, a destroyed frame and a frame showing anything else', () => {
    expect(isTrustedSender({ ...base, sender: { id: 'other-window' } })).toBe(false)
    expect(isTrustedSender({ ...base, frame: { url: INDEX } })).toBe(false) // a subframe, even at our URL
    expect(isTrustedSender({ ...base, frame: null })).toBe(false)
    expect(isTrustedSender({ ...base, frame: undefined, mainFrame: undefined })).toBe(false)
    const elsewhere = { url: 'https://evil.example/' }
    expect(isTrustedSender({ ...base, frame: elsewhere, mainFrame: elsewhere })).toBe(false)
  })

  it('answers an untrusted sender with the unauthorized envelope', () => {
    expect(UNTRUSTED_SENDER_REPLY).toEqual({ ok: false, error: { code: 'unauthorized', message: expect.any(String), details: null } })
  })
})

/**
 * A static guard, since Electron cannot run here: electron.ts must install each handler and route
 * it through the decision tested above. Removing a line of wiring fails this test.
 */
describe('wiring: host/electron.ts installs every handler', () => {
  const src = readFileSync(join(root, 'src/main/host/electron.ts'), 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '')
  const main = readFileSync(join(root, 'src/main/index.ts'), 'utf8')

  it.each([
    ['new windows', /setWindowOpenHandler\(\s*\(\{\s*url\s*\}\)\s*=>\s*\{[^}]*windowOpenDecision\(url\)/],
    ['openExternal only with the decided URL, after asking', /openExternalAfterAsking\(win, decision\.openExternal\)/],
    ['the question before openExternal', /showMessageBox\(win, \{ type: 'question', \.\.\.externalLinkPrompt\(href\) \}\)\s*\n\s*if \(response === 0\) await shell\.openExternal\(href\)/],
    ['openExternal nowhere else', /^(?![\s\S]*shell\.openExternal\([\s\S]*shell\.openExternal\()/],
    ['will-navigate', /\.on\('will-navigate',[^}]*shouldBlockNavigation\(event\.url, indexUrl\)\) event\.preventDefault\(\)/],
    ['will-redirect', /\.on\('will-redirect',[^}]*shouldBlockNavigation\(event\.url, indexUrl\)\) event\.preventDefault\(\)/],
    ['will-frame-navigate', /\.on\('will-frame-navigate',[^}]*shouldBlockNavigation\(event\.url, indexUrl\)\) event\.preventDefault\(\)/],
    ['will-attach-webview', /\.on\('will-attach-webview',[^}]*event\.preventDefault\(\)/],
    ['permission requests', /setPermissionRequestHandler\([^)]*\)\s*=>\s*callback\(permissionDecision\(permission\)\)/],
    ['permission checks', /setPermissionCheckHandler\([^)]*\)\s*=>\s*permissionDecision\(permission\)/],
    ['device permissions', /setDevicePermissionHandler\([^)]*\)\s*=>\s*permissionDecision\(/],
    ['the CSP header', /onHeadersReceived\([\s\S]*?withContentSecurityPolicy\(details\.responseHeaders\)/],
    ['the hardened window options, DevTools as the build allows', /new BrowserWindow\(mainWindowOptions\(opts\.preloadPath, app\.isPackaged\)\)/],
    ['the session lock-down before the window', /lockDownSession\(\)\s*\n\s*\n?\s*const win = new BrowserWindow/]
  ])('%s', (_name, pattern) => {
    expect(src).toMatch(pattern)
  })

  it('checks the sender before dispatching, on every IPC handler', () => {
    const handlers = [...src.matchAll(/ipcMain\.handle\(/g)]
    expect(handlers).toHaveLength(1) // one loop over API_METHODS registers them all
    const body = src.slice(src.indexOf('ipcMain.handle('))
    const check = body.indexOf('isTrustedSender(')
    const refuse = body.indexOf('if (!trusted) return UNTRUSTED_SENDER_REPLY')
    const call = body.indexOf('dispatch(')
    expect(check).toBeGreaterThan(-1)
    expect(refuse).toBeGreaterThan(check)
    expect(call).toBeGreaterThan(refuse)
    expect(body).toMatch(/sender: event\.sender, ourContents: contents, frame: event\.senderFrame, mainFrame: contents\.mainFrame/)
    expect(src).not.toMatch(/ipcMain\.on\(/) // no fire-and-forget channel bypasses the check
  })

  it('turns the sandbox on for every renderer and takes no remote module', () => {
    expect(main).toMatch(/app\.enableSandbox\(\)/)
    expect(src + main).not.toMatch(/@electron\/remote|enableRemoteModule|allowpopups/)
  })
})

describe('checklist 20: the preload passes nothing of Electron to the page', () => {
  it('hands event listeners the payload only, never the IPC event (it carries ipcRenderer as sender)', () => {
    const preload = readFileSync(join(root, 'out/preload/index.js'), 'utf8')
    let exposed: Record<string, unknown> = {}
    const listeners = new Map<string, ((...a: unknown[]) => void)[]>()
    const ipcRenderer = {
      invoke: () => Promise.resolve(null),
      on: (ch: string, fn: (...a: unknown[]) => void) => listeners.set(ch, [...(listeners.get(ch) ?? []), fn]),
      removeListener: (ch: string, fn: (...a: unknown[]) => void) => listeners.set(ch, (listeners.get(ch) ?? []).filter((f) => f !== fn))
    }
    const electron = { contextBridge: { exposeInMainWorld: (_k: string, v: Record<string, unknown>) => (exposed = v) }, ipcRenderer }
    runInNewContext(preload, { require: () => electron, module: { exports: {} }, exports: {} })
    expect(Object.isFrozen(exposed)).toBe(true)

    const got: unknown[][] = []
    const off = (exposed.onEvent as (l: (...a: unknown[]) => void) => () => void)((...a) => got.push(a))
    expect([...listeners.keys()]).toEqual([IPC_EVENT_CHANNEL])
    for (const fn of listeners.get(IPC_EVENT_CHANNEL) ?? []) fn({ sender: ipcRenderer, senderFrame: {} }, { type: 'changed', topics: ['labels'] })
    expect(got).toEqual([[{ type: 'changed', topics: ['labels'] }]])
    off()
    expect(listeners.get(IPC_EVENT_CHANNEL)).toEqual([])
  })
})

describe('packaged builds: Electron fuses (npm run package)', () => {
  const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8')
  it.each([
    ['ELECTRON_RUN_AS_NODE cannot turn the app into a Node interpreter', 'runAsNode: false'],
    ['NODE_OPTIONS is ignored', 'enableNodeOptionsEnvironmentVariable: false'],
    ['--inspect and friends are ignored', 'enableNodeCliInspectArguments: false'],
    ['the app loads only from its asar archive', 'onlyLoadAppFromAsar: true'],
    ['the asar archive is integrity-checked', 'enableEmbeddedAsarIntegrityValidation: true'],
    ['cookies are encrypted at rest', 'enableCookieEncryption: true']
  ])('%s', (_name, line) => {
    expect(yml).toMatch(new RegExp(`^electronFuses:\\n(  .*\\n)*  ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'))
  })
})
