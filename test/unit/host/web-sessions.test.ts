import { describe, expect, it } from 'vitest'
import { createLogins } from '../../../src/main/host/web-identity'
import { createSessionTable, secretMatches, sessionCookieValue, sessionOf, sessionSecret } from '../../../src/main/host/web-sessions'

describe('web host sessions: a signed session id in place of the login token', () => {
  const [alice, bob] = createLogins(['alice', 'bob'])
  const table = createSessionTable({ idleMs: 1000, now: () => 0 })
  const newSession = (login: typeof alice) => sessionCookieValue(table.open(login))
  const sessionLogin = (value: string, logins: typeof alice[]) => sessionOf(value, logins)?.login ?? null

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

  it('a session secret is neither the cookie nor the token, and is another for every session', () => {
    const s = table.open(alice)
    const secret = sessionSecret(s)
    expect(sessionCookieValue(s)).not.toContain(secret)
    expect(secret).not.toContain(alice.token)
    expect(secretMatches(s, secret)).toBe(true)
    expect(secretMatches(s, sessionSecret(table.open(alice)))).toBe(false)
    expect(secretMatches(s, undefined)).toBe(false)
    expect(secretMatches(s, [secret, secret])).toBe(false)
  })

  it('ends a session idle longer than its lifetime; a call starts the idle time again', () => {
    let now = 0
    const t = createSessionTable({ idleMs: 1000, now: () => now })
    const s = t.open(alice)
    now = 900
    t.touch(s)
    now = 1800
    expect(t.live(s)).toBe(true)
    now = 1901
    expect(t.live(s)).toBe(false)
    now = 0 // an ended session stays ended
    expect(t.live(s)).toBe(false)
    const swept = t.open(bob)
    now = 5000
    expect(t.sweep()).toEqual([swept.nonce])
    expect(t.live(swept)).toBe(false)
  })
})
