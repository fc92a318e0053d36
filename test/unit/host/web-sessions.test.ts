import { describe, expect, it } from 'vitest'
import { createLogins } from '../../../src/main/host/web-identity'
import { newSession, sessionLogin } from '../../../src/main/host/web-sessions'

describe('web host sessions: a signed session id in place of the login token', () => {
  const [alice, bob] = createLogins(['alice', 'bob'])

  it('a session names its login, and holds nothing of the token', () => {
    const s = newSession(alice)
    expect(sessionLogin(s, [alice, bob])).toBe(alice)
    expect(s).not.toContain(alice.token)
    expect(newSession(alice)).not.toBe(s) // a fresh nonce each time
  })

  it('refuses the token itself, a tampered nonce or signature, and a session of a previous start', () => {
    const s = newSession(bob)
    const [nonce, sig] = s.split('.')
    expect(sessionLogin(bob.token, [alice, bob])).toBeNull()
    expect(sessionLogin(`${nonce}x.${sig}`, [alice, bob])).toBeNull()
    expect(sessionLogin(`${nonce}.${sig.slice(1)}A`, [alice, bob])).toBeNull()
    expect(sessionLogin(`${nonce}.`, [alice, bob])).toBeNull()
    expect(sessionLogin('', [alice, bob])).toBeNull()
    // A restart draws new tokens: the same reviewers, another start.
    expect(sessionLogin(s, createLogins(['alice', 'bob']))).toBeNull()
    // The same token again (a fixed test token, a network blip): still signed in.
    const [fixed] = createLogins(undefined, 'fixed-token-0123456789abcdef')
    expect(sessionLogin(newSession(fixed), createLogins(undefined, 'fixed-token-0123456789abcdef'))?.token).toBe(fixed.token)
  })
})
