import { describe, expect, it } from 'vitest'
import { findChromium } from '../e2e/browser'

describe('e2e browser lookup', () => {
  it('uses CHROMIUM_PATH when it exists and fails with a clear message when nothing is found', () => {
    expect(findChromium({ CHROMIUM_PATH: process.execPath })).toBe(process.execPath)
    expect(() => findChromium({ CHROMIUM_PATH: '/nonexistent/chromium' })).toThrow(/No Chromium found .*apt-get install -y chromium.*CHROMIUM_PATH/)
  })
})
