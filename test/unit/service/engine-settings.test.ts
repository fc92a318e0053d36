import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_ENGINE_SETTINGS, engineSettingsSchema } from '../../../src/shared/api'
import { engineSettingsFromStored, readEngineSettings, updateEngineSettings } from '../../../src/main/service/engine-settings'
import { openStore } from '../../../src/main/store'

describe('engine settings', () => {
  it('default to docs/engine.md’s (β = 0.20 absolute, the binomial bound, δ 0.03, ε 0.02, social, ρ 0.05, all labels)', () => {
    expect(engineSettingsFromStored({})).toEqual(DEFAULT_ENGINE_SETTINGS)
    expect(DEFAULT_ENGINE_SETTINGS).toMatchObject({ method: 'standing-vote', budget: { kind: 'absolute', beta: 0.2 }, bound: 'binomial', delta: 0.03, epsAct: 0.02, state: 'social', spotRate: 0.05, labelPolicy: 'all' })
    expect(engineSettingsSchema.safeParse(DEFAULT_ENGINE_SETTINGS).success).toBe(true)
  })

  it('take the bound as binomial or hoeffding only; a stored bound that fits neither falls back to the default', () => {
    expect(engineSettingsSchema.shape.bound.safeParse('hoeffding').success).toBe(true)
    expect(engineSettingsSchema.shape.bound.safeParse('bernstein').success).toBe(false)
    expect(engineSettingsFromStored({ 'engine.bound': 'hoeffding' }).bound).toBe('hoeffding')
    const warn = console.warn
    console.warn = () => {}
    try {
      expect(engineSettingsFromStored({ 'engine.bound': 'bernstein' }).bound).toBe('binomial')
    } finally {
      console.warn = warn
    }
  })

  it('read stored values over the defaults, falling back for a value that no longer fits', () => {
    const warn = console.warn
    console.warn = () => {}
    try {
      const s = engineSettingsFromStored({ 'engine.method': 'shared', 'engine.spotRate': 7, 'engine.budget': { kind: 'absolute', beta: 0.2 }, reviewer: 'x' })
      expect(s).toMatchObject({ method: 'shared', spotRate: 0.05, budget: { kind: 'absolute', beta: 0.2 } })
    } finally {
      console.warn = warn
    }
  })

  it('are written as engine.<name> settings, audited', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-es-'))
    const store = await openStore(join(dir, 'a.db'))
    try {
      const s = await updateEngineSettings(store, { labelPolicy: 'random', budget: { kind: 'relative', lambda: 2 } }, { reviewer: 'ana', sessionId: 's', shell: 'cli' })
      expect(s).toMatchObject({ labelPolicy: 'random', budget: { kind: 'relative', lambda: 2 } })
      expect(await store.getSettings()).toEqual({ 'engine.labelPolicy': 'random', 'engine.budget': { kind: 'relative', lambda: 2 } })
      expect(await readEngineSettings(store)).toEqual(s)
      expect((await store.auditTail(1))[0].action).toBe('settings.set')
    } finally {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
