/**
 * The app-wide guard every webContents gets as Electron creates it (Electron's security checklist,
 * items 13–14 for any window, not only ours, and 12 for webviews): its decisions under plain Node,
 * and a static check that host/electron.ts installs each of them on `web-contents-created` and that
 * the main process installs the guard before its first window (Electron cannot launch here).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { devToolsAllowed } from '../../../src/main/host/hardening'
import { webContentsGuard } from '../../../src/main/host/web-contents-guard'

const root = join(__dirname, '../../..')
const INDEX = 'file:///opt/arbiter/resources/app.asar/out/renderer/index.html'
const guard = webContentsGuard(INDEX)

describe('the guard on every webContents', () => {
  it('opens no window at all, not even our own index.html or a plain https link', () => {
    for (const url of [INDEX, `${INDEX}#/queue`, 'https://example.org/', 'about:blank', 'javascript:open()', 'file:///etc/passwd', '']) {
      expect(guard.windowOpen(url), url).toEqual({ action: 'deny' })
    }
  })

  it('lets a frame stay on our index.html and stops it going anywhere else', () => {
    for (const url of [INDEX, `${INDEX}#/review/t-1`, `${INDEX}?x=1#/audit`]) expect(guard.blockNavigation(url), url).toBe(false)
    const away = [
      'https://evil.example/', 'http://127.0.0.1:5173/', 'file:///opt/arbiter/resources/app.asar/out/renderer/other.html', 'file:///etc/passwd',
      'file://evil.example/opt/arbiter/resources/app.asar/out/renderer/index.html', 'javascript:alert(1)', 'data:text/html,x', 'about:blank',
      'devtools://devtools/bundled/inspector.html', 'chrome://settings', 'not a url', ''
    ]
    for (const url of away) expect(guard.blockNavigation(url), url).toBe(true)
  })

  it('attaches no webview', () => {
    expect(guard.attachWebview()).toBe('deny')
  })

  it('allows DevTools in a development build only', () => {
    expect(devToolsAllowed(true)).toBe(false)
    expect(devToolsAllowed(false)).toBe(true)
  })
})

describe('wiring: the guard is installed on web-contents-created, before the first window', () => {
  const src = readFileSync(join(root, 'src/main/host/electron.ts'), 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '')
  const main = readFileSync(join(root, 'src/main/index.ts'), 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '')
  const created = src.slice(src.indexOf("app.on('web-contents-created'"))
  const handler = created.slice(0, created.indexOf('\n  })\n'))

  it('registers the handler once, in electron.ts', () => {
    expect([...src.matchAll(/app\.on\('web-contents-created'/g)]).toHaveLength(1)
    expect(src).toMatch(/const guard = webContentsGuard\(pathToFileURL\(rendererIndex\)\.toString\(\)\)\n\s*const devTools = devToolsAllowed\(app\.isPackaged\)\n\s*app\.on\('web-contents-created'/)
  })

  it.each([
    ['new windows', /contents\.setWindowOpenHandler\(\(\{ url \}\) => guard\.windowOpen\(url\)\)/],
    ['will-navigate', /contents\.on\('will-navigate', \(event\) => \{\s*if \(guard\.blockNavigation\(event\.url\)\) event\.preventDefault\(\)/],
    ['will-redirect', /contents\.on\('will-redirect', \(event\) => \{\s*if \(guard\.blockNavigation\(event\.url\)\) event\.preventDefault\(\)/],
    ['will-frame-navigate', /contents\.on\('will-frame-navigate', \(event\) => \{\s*if \(guard\.blockNavigation\(event\.url\)\) event\.preventDefault\(\)/],
    ['will-attach-webview', /contents\.on\('will-attach-webview', \(event\) => \{\s*if \(guard\.attachWebview\(\) === 'deny'\) event\.preventDefault\(\)/],
    ['DevTools shut in a packaged build', /if \(!devTools\) contents\.on\('devtools-opened', \(\) => contents\.closeDevTools\(\)\)/]
  ])('%s', (_name, pattern) => {
    expect(handler).toMatch(pattern)
  })

  it('installs the guard in the main process before the app is ready, so no webContents exists unguarded', () => {
    const install = main.indexOf('guardEveryWebContents(rendererIndex)')
    expect(install).toBeGreaterThan(-1)
    expect(install).toBeLessThan(main.indexOf('app.whenReady()'))
    expect(main).toMatch(/openMainWindow\(\{[\s\S]*rendererIndex\n/)
  })
})
