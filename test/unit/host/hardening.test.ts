import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { API_METHODS, ipcChannel } from '../../../src/shared/api-methods'
import { CONTENT_SECURITY_POLICY, hardenedWebPreferences, isAllowedNavigation, mainWindowOptions } from '../../../src/main/host/hardening'

const out = join(__dirname, '../../../out')

describe('window hardening (electron-free module used by host/electron.ts)', () => {
  it('isolates, sandboxes and keeps node out of the renderer', () => {
    const prefs = mainWindowOptions('/app/out/preload/index.js', true).webPreferences
    expect(prefs).toEqual(hardenedWebPreferences('/app/out/preload/index.js', true))
    expect(prefs.contextIsolation).toBe(true)
    expect(prefs.sandbox).toBe(true)
    expect(prefs.nodeIntegration).toBe(false)
    expect(prefs.nodeIntegrationInWorker).toBe(false)
    expect(prefs.webviewTag).toBe(false)
    expect(prefs.webSecurity).toBe(true)
  })

  it('has one strict CSP: self only, no inline script, no eval, no objects', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]))
    expect(directives.get('default-src')).toEqual(["'self'"])
    expect(directives.get('script-src')).toEqual(["'self'"])
    expect(directives.get('object-src')).toEqual(["'none'"])
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*|http:|https:/)
  })

  it('allows navigation only to the renderer index', () => {
    const index = 'file:///opt/arbiter/out/renderer/index.html'
    expect(isAllowedNavigation(`${index}#/queue`, index)).toBe(true)
    expect(isAllowedNavigation('file:///etc/passwd', index)).toBe(false)
    expect(isAllowedNavigation('https://evil.example/', index)).toBe(false)
    expect(isAllowedNavigation('not a url', index)).toBe(false)
  })
})

describe('the build (npm test builds out/ first)', () => {
  it('carries the same CSP in the built index.html', () => {
    const html = readFileSync(join(out, 'renderer/index.html'), 'utf8')
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY)
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
  })

  it('bundles the sandboxed preload so that it requires nothing but electron', () => {
    const preload = readFileSync(join(out, 'preload/index.js'), 'utf8')
    const required = new Set([...preload.matchAll(/require\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]))
    expect([...required]).toEqual(['electron'])
    expect(preload).not.toMatch(/\bimport\s*\(/)
  })

  it('exposes exactly the contract calls, each bound to its own channel (no generic invoke)', async () => {
    const preload = readFileSync(join(out, 'preload/index.js'), 'utf8')
    const exposed: Record<string, Record<string, (...a: unknown[]) => unknown>> = {}
    const invoked: unknown[][] = []
    const fakeElectron = {
      contextBridge: { exposeInMainWorld: (key: string, value: Record<string, (...a: unknown[]) => unknown>) => (exposed[key] = value) },
      ipcRenderer: { invoke: (...a: unknown[]) => (invoked.push(a), Promise.resolve(null)), on: () => {}, removeListener: () => {} }
    }
    const requireShim = (name: string) => {
      if (name !== 'electron') throw new Error(`preload required ${name}`)
      return fakeElectron
    }
    runInNewContext(preload, { require: requireShim, module: { exports: {} }, exports: {} })
    expect(Object.keys(exposed)).toEqual(['api'])
    expect(Object.keys(exposed.api).sort()).toEqual([...API_METHODS, 'onEvent'].sort())
    for (const m of API_METHODS) await exposed.api[m]({ probe: m })
    expect(invoked).toEqual(API_METHODS.map((m) => [ipcChannel(m), { probe: m }]))
  })

  it('emits the worker entry beside the main bundle', () => {
    expect(existsSync(join(out, 'main/jobs-worker.js'))).toBe(true)
    expect(existsSync(join(out, 'main/index.js'))).toBe(true)
  })
})
