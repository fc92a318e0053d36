import type { IncomingMessage } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CallContext } from '../../../src/shared/api'
import { UsageError } from '../../../src/main/cli/command'
import { reviewersOf } from '../../../src/main/cli/commands/serve'
import { callContext, checkReviewerNames, createLogins, findLogin, tabOf } from '../../../src/main/host/web-identity'

const BASE: CallContext = { sessionId: 'process-session', reviewer: 'from-settings', shell: 'web' }
const req = (headers: Record<string, string | string[]>) => ({ headers }) as unknown as IncomingMessage

describe('web logins (serve --reviewer)', () => {
  it('without reviewers: one login whose caller is the settings reviewer, in the process session or a tab of it', () => {
    const [login, ...rest] = createLogins(undefined, 'fixed-token')
    expect(rest).toEqual([])
    expect(login).toEqual({ reviewer: null, token: 'fixed-token', sessionPrefix: null })
    expect(callContext(BASE, login, null)).toEqual(BASE)
    expect(callContext(BASE, login, 'tab-0001')).toEqual({ ...BASE, sessionId: 'process-session/tab-0001' })
    expect(createLogins([])[0].token).toMatch(/^[A-Za-z0-9_-]{32}$/)
  })

  it('with reviewers: a random token and session prefix each, the reviewer fixed and marked as from the token', () => {
    const logins = createLogins(['alice', ' bob '])
    expect(logins.map((l) => l.reviewer)).toEqual(['alice', 'bob'])
    expect(new Set(logins.map((l) => l.token)).size).toBe(2)
    expect(new Set(logins.map((l) => l.sessionPrefix)).size).toBe(2)
    const [alice, bob] = logins
    expect(callContext(BASE, alice, null)).toEqual({ ...BASE, reviewer: 'alice', reviewerFromToken: true, sessionId: alice.sessionPrefix })
    // Whatever tab id bob sends, his session is under his own prefix.
    expect(callContext(BASE, bob, 'tab-0001').sessionId).toBe(`${bob.sessionPrefix}/tab-0001`)
    expect(findLogin(bob.token, logins)).toBe(bob)
    expect(findLogin(`${bob.token}x`, logins)).toBeNull()
    expect(findLogin(null, logins)).toBeNull()
    expect(findLogin('', logins)).toBeNull()
    // A launch's tokens are new every time.
    expect(createLogins(['alice'])[0].token).not.toBe(alice.token)
    expect(() => createLogins(['alice'], 'fixed')).toThrow(/single login/)
  })

  it('refuses an empty, overlong, control-character or repeated reviewer name', () => {
    expect(checkReviewerNames([' ana ', 'Bo Li'])).toEqual(['ana', 'Bo Li'])
    expect(() => checkReviewerNames(['  '])).toThrow(/1 to 80/)
    expect(() => checkReviewerNames(['x'.repeat(81)])).toThrow(/1 to 80/)
    expect(() => checkReviewerNames(['a\u0007b'])).toThrow(/control character/)
    expect(() => checkReviewerNames(['ana', 'ana '])).toThrow(/named twice/)
  })

  it('reads the tab id from its header: absent is null, anything but 8–64 of [A-Za-z0-9_-] is bad', () => {
    expect(tabOf(req({}))).toBeNull()
    expect(tabOf(req({ 'x-arbiter-session': 'abcdef12' }))).toBe('abcdef12')
    for (const bad of ['short', 'has space!', 'a/b/c/d/e/f', 'x'.repeat(65), '']) expect(tabOf(req({ 'x-arbiter-session': bad })), bad).toBe('bad')
    expect(tabOf(req({ 'x-arbiter-session': ['abcdef12', 'abcdef13'] }))).toBe('bad')
  })
})

describe('serve --reviewer / --reviewers FILE', () => {
  it('takes the flags, then the file’s names (blank and # lines skipped), and refuses bad ones as usage errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-reviewers-'))
    try {
      const file = join(dir, 'team.txt')
      writeFileSync(file, '# the calibration team\ncarol\n\n  dan  \r\n')
      expect(reviewersOf(['alice'], file)).toEqual(['alice', 'carol', 'dan'])
      expect(reviewersOf([], undefined)).toEqual([])
      writeFileSync(file, '# nobody\n\n')
      expect(() => reviewersOf([], file)).toThrow(/names no reviewer/)
      expect(() => reviewersOf([], join(dir, 'missing.txt'))).toThrow(/cannot read --reviewers/)
      expect(() => reviewersOf(['alice', 'alice'], undefined)).toThrow(UsageError)
      expect(() => reviewersOf(['alice', 'alice'], undefined)).toThrow(/named twice/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
