/**
 * Several reviewers on one console, over real HTTP on either backend: `serve --reviewer
 * alice --reviewer bob` gives each a login token; the token decides who calls (Settings cannot
 * rename it), every label and audit row carries that reviewer, a task one of them opened stays out
 * of the other's queue and the other's resolve of it is a 409 naming the holder, and an expired
 * hold gives the task back. The store's clock is injected, so expiry is exact and nothing sleeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntryView, QueuePageResult, ReserveResult, Settings, TaskDetail } from '../../../src/shared/api'
import { DEFAULT_RENDERER_DIR } from '../../../src/main/console-server'
import { dispatch } from '../../../src/main/host/dispatch'
import { startWebHost, type WebHost } from '../../../src/main/host/web'
import { createService, type Service } from '../../../src/main/service'
import { RESERVATION_MS } from '../../../src/main/service/handlers/queue'
import { openStore, type Store } from '../../../src/main/store'
import type { DbLocation, MakeDbLocation } from '../../helpers/db-location'
import { rawRequest } from '../../helpers/http'
import { sessionHeaders, signIn } from '../../helpers/web-client'
import { exampleTraces, seedTraces } from '../../helpers/seed'

const MIN = 60_000
const ALL = { decision: null }

interface Reply<T> {
  status: number
  value: T
  error: { code: string; message: string; details: Record<string, unknown> } | null
}

export function defineReviewersSuite(name: string, makeDbLocation: MakeDbLocation): void {
  describe(`reviewers with their own logins on ${name}`, () => {
    let location: DbLocation | null = null
    let store: Store
    let service: Service
    let host: WebHost
    let clock = Date.parse('2026-03-02T09:00:00.000Z')

    const token = (reviewer: string) => host.logins.find((l) => l.reviewer === reviewer)?.token ?? 'none'
    /** A call as `reviewer`'s login, from tab `tab` (no tab: the login's default session). */
    async function call<T>(reviewer: string, method: string, args: unknown = {}, tab?: string): Promise<Reply<T>> {
      const headers: Record<string, string> = { authorization: `Bearer ${token(reviewer)}`, 'content-type': 'application/json' }
      if (tab !== undefined) headers['x-arbiter-session'] = tab
      const res = await rawRequest(host.port, { method: 'POST', path: `/api/${method}`, headers, body: JSON.stringify(args) })
      const body = JSON.parse(res.body) as { ok: boolean; value?: T; error?: Reply<T>['error'] }
      return { status: res.status, value: body.value as T, error: body.error ?? null }
    }
    const queue = async (reviewer: string, tab?: string) =>
      (await call<QueuePageResult>(reviewer, 'queue.page', { filter: ALL, sort: 'age' }, tab)).value.rows.map((r) => [r.taskId, r.reservedBy?.reviewer ?? null])
    const resolve = async (reviewer: string, taskId: string, tab?: string) => {
      const detail = (await call<TaskDetail>(reviewer, 'task.detail', { taskId }, tab)).value
      return call<{ labelId: string }>(reviewer, 'labels.resolve', { taskId, label: detail.task.candidates[0], expectedVersion: detail.task.version }, tab)
    }
    const auditSince = async (seq: number) => (await store.auditTail(1000)).filter((a) => a.seq > seq)
    const lastSeq = async () => (await store.auditTail(1000)).reduce((m, a) => Math.max(m, a.seq), 0)

    beforeAll(async () => {
      location = await makeDbLocation()
      store = await openStore(location.dbLocation, { now: () => new Date(clock) })
      await seedTraces(store, exampleTraces())
      service = await createService({ store, dbLocation: location.dbLocation, nativeBinding: null, shell: 'web' })
      host = await startWebHost({
        handlers: service.handlers, subscribe: service.subscribe, context: service.context, rendererDir: DEFAULT_RENDERER_DIR,
        reviewers: ['alice', 'bob']
      })
      // The operator's own setting (engine settings are an adjudicator's, and none is named yet).
      expect((await dispatch(service.handlers, 'engine.updateSettings', { patch: { autoRefit: false } }, service.context())).ok).toBe(true)
    })
    afterAll(async () => {
      await host?.close()
      await service?.close()
      await location?.cleanup()
    })

    it('gives each reviewer a login; a wrong token is 401; the token, not Settings, names the caller', async () => {
      expect(host.logins.map((l) => [l.reviewer, l.url])).toEqual([
        ['alice', `${host.url}?token=${encodeURIComponent(token('alice'))}`],
        ['bob', `${host.url}?token=${encodeURIComponent(token('bob'))}`]
      ])
      expect(token('alice')).not.toBe(token('bob'))
      const wrong = await rawRequest(host.port, { method: 'POST', path: '/api/app.info', headers: { authorization: 'Bearer nope' }, body: '{}' })
      expect(wrong.status).toBe(401)
      expect((await rawRequest(host.port, { method: 'POST', path: '/api/app.info', body: '{}' })).status).toBe(401)
      expect((await rawRequest(host.port, { path: '/?token=nope' })).status).toBe(401)
      // Bob's link sets a session (cookie and secret) that calls as bob.
      const viaCookie = await rawRequest(host.port, { method: 'POST', path: '/api/settings.get', headers: sessionHeaders(await signIn(host.port, token('bob'))), body: '{}' })
      expect(JSON.parse(viaCookie.body).value.reviewer).toBe('bob')

      expect((await call('alice', 'app.info')).value).toMatchObject({ reviewerFromToken: true })
      expect((await call<Settings>('alice', 'settings.get')).value.reviewer).toBe('alice')
      const before = await lastSeq()
      const rename = await call('alice', 'settings.update', { patch: { reviewer: 'bob' } })
      expect(rename).toMatchObject({ status: 400, error: { code: 'bad_input', message: expect.stringContaining('login link') } })
      expect(await auditSince(before)).toEqual([])
      expect((await store.getSettings()).reviewer).toBeUndefined()
      expect((await call<Settings>('alice', 'settings.update', { patch: { theme: 'dark' } })).value).toMatchObject({ reviewer: 'alice', theme: 'dark' })
      expect((await auditSince(before)).map((a) => [a.action, a.reviewer])).toEqual([['settings.set', 'alice']])
      expect((await call('alice', 'app.counts', {}, 'bad tab!')).status).toBe(400)
    })

    it('a login link gives a session id, never the token; another site cannot sign a browser in; switching logins asks first', async () => {
      const link = (reviewer: string) => `/?token=${encodeURIComponent(token(reviewer))}`
      const signIn = await rawRequest(host.port, { path: link('alice'), headers: { 'sec-fetch-site': 'none' } })
      expect(signIn.status).toBe(302)
      const alice = String(signIn.headers['set-cookie']).split(';')[0]
      expect(alice).not.toContain(encodeURIComponent(token('alice')))
      const secretOf = (location: unknown) => new URL(String(location), host.url).hash.replace(/^#arbiter-secret=/, '')
      const aliceSecret = secretOf(signIn.headers.location)
      const whoAmI = async (cookie: string, secret = aliceSecret) =>
        JSON.parse((await rawRequest(host.port, { method: 'POST', path: '/api/settings.get', headers: { cookie, 'x-arbiter-secret': secret }, body: '{}' })).body).value?.reviewer
      expect(await whoAmI(alice)).toBe('alice')
      // The token as a cookie is no session.
      expect((await rawRequest(host.port, { method: 'POST', path: '/api/app.info', headers: { cookie: `arbiter_${host.port}=${token('alice')}` }, body: '{}' })).status).toBe(401)

      // A page of another site (another port of 127.0.0.1 too) navigating to bob's link: refused, nothing set.
      for (const site of ['cross-site', 'same-site']) {
        const forced = await rawRequest(host.port, { path: link('bob'), headers: { cookie: alice, 'sec-fetch-site': site } })
        expect(forced.status).toBe(403)
        expect(forced.headers['set-cookie']).toBeUndefined()
        expect(forced.body).toContain('opened by another site')
      }
      expect(await whoAmI(alice)).toBe('alice')

      // Alice's browser opening bob's link herself: a page asks, and sets nothing until she confirms.
      const ask = await rawRequest(host.port, { path: link('bob'), headers: { cookie: alice, 'sec-fetch-site': 'none' } })
      expect(ask.status).toBe(200)
      expect(ask.headers['set-cookie']).toBeUndefined()
      expect(ask.headers['content-security-policy']).toContain("form-action 'self'")
      expect(ask.body).toContain('signed in as <strong>alice</strong>')
      expect(ask.body).toContain('Switch to bob')
      // The confirmation is a POST from our own page only.
      const form = `token=${encodeURIComponent(token('bob'))}`
      const formHeaders = { cookie: alice, 'content-type': 'application/x-www-form-urlencoded' }
      expect((await rawRequest(host.port, { method: 'POST', path: '/session', headers: formHeaders, body: form })).status).toBe(403)
      expect((await rawRequest(host.port, { method: 'POST', path: '/session', headers: { ...formHeaders, origin: 'http://127.0.0.1:1' }, body: form })).status).toBe(403)
      const ours = { ...formHeaders, origin: `http://127.0.0.1:${host.port}`, 'sec-fetch-site': 'same-origin' }
      expect((await rawRequest(host.port, { method: 'POST', path: '/session', headers: ours, body: 'token=nope' })).status).toBe(401)
      const switched = await rawRequest(host.port, { method: 'POST', path: '/session', headers: ours, body: form })
      expect(switched.status).toBe(303)
      const bob = String(switched.headers['set-cookie']).split(';')[0]
      expect(await whoAmI(bob, secretOf(switched.headers.location))).toBe('bob')
      // The same login's link again changes nothing.
      const again = await rawRequest(host.port, { path: link('bob'), headers: { cookie: bob, 'sec-fetch-site': 'none' } })
      expect(again.status).toBe(302)
      expect(again.headers['set-cookie']).toBeUndefined()
    })

    it('records every label and audit entry under the login’s reviewer and session', async () => {
      const before = await lastSeq()
      const reserved = await call<ReserveResult>('alice', 'task.reserve', { taskId: 'medclaim-0001' }, 'alice-tab-1')
      expect(reserved.value.mine).toMatchObject({ reviewer: 'alice', sessionId: expect.stringMatching(/^login-.+\/alice-tab-1$/) })
      const session = reserved.value.mine?.sessionId
      expect((await resolve('alice', 'medclaim-0001', 'alice-tab-1')).status).toBe(200)
      expect((await store.liveLabels('medclaim-0001')).map((l) => [l.reviewer, l.sessionId])).toEqual([['alice', session]])
      const rows = await auditSince(before)
      expect(rows.map((a) => a.action)).toEqual(['task.reserve', 'label.record'])
      for (const a of rows) expect([a.reviewer, a.sessionId, a.shell]).toEqual(['alice', session, 'web'])
      const tail = (await call<AuditEntryView[]>('bob', 'audit.tail', { limit: 2 })).value
      expect(tail.map((a) => [a.action, a.reviewer])).toEqual([['task.reserve', 'alice'], ['label.record', 'alice']])
    })

    it('keeps a task alice holds out of bob’s queue and refuses his resolve with a 409 naming her', async () => {
      expect((await call<ReserveResult>('alice', 'task.reserve', { taskId: 'medclaim-0002' }, 'alice-tab-1')).value.mine?.reviewer).toBe('alice')
      expect(await queue('bob')).toEqual([['medclaim-0001', null], ['trivia-0001', null]])
      expect(await queue('alice', 'alice-tab-1')).toEqual([['medclaim-0001', null], ['medclaim-0002', 'alice'], ['trivia-0001', null]])
      expect((await call<TaskDetail>('bob', 'task.detail', { taskId: 'medclaim-0002' })).value).toMatchObject({ reservedByOther: true, reservation: { reviewer: 'alice' } })
      expect((await call<ReserveResult>('bob', 'task.reserve', { taskId: 'medclaim-0002' })).value).toMatchObject({ mine: null, heldBy: { reviewer: 'alice' } })

      const refused = await resolve('bob', 'medclaim-0002')
      expect(refused.status).toBe(409)
      expect(refused.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('alice'), details: { reason: 'reserved', heldBy: { reviewer: 'alice' } } })
      // Alice's other tab is another session; bob naming alice's tab is still bob's own session.
      expect(await resolve('alice', 'medclaim-0002', 'alice-tab-2')).toMatchObject({ status: 409, error: { details: { heldBy: { reviewer: 'alice' } } } })
      expect(await resolve('bob', 'medclaim-0002', 'alice-tab-1')).toMatchObject({ status: 409, error: { details: { heldBy: { reviewer: 'alice' } } } })
      expect(await store.liveLabels('medclaim-0002')).toEqual([])

      expect((await resolve('alice', 'medclaim-0002', 'alice-tab-1')).status).toBe(200)
      expect((await store.liveLabels('medclaim-0002')).map((l) => l.reviewer)).toEqual(['alice'])
      expect((await store.taskDetail('medclaim-0002')).reservation).toBeNull()
    })

    it('keeps a hold while its heartbeat renews it, and gives the task back once it expires', async () => {
      const first = await call<ReserveResult>('bob', 'task.reserve', { taskId: 'trivia-0001' })
      expect(first.value.mine?.reviewer).toBe('bob')
      const reserves = async () => (await store.auditTail(1000)).filter((a) => a.action === 'task.reserve' && a.target === 'trivia-0001').length
      expect(await reserves()).toBe(1)
      clock += RESERVATION_MS - MIN
      expect((await call<ReserveResult>('bob', 'task.reserve', { taskId: 'trivia-0001' })).value.mine?.reviewer).toBe('bob')
      expect(await reserves()).toBe(1) // a renewal is not a new act
      clock += RESERVATION_MS - MIN
      expect(await queue('alice')).not.toContainEqual(['trivia-0001', null])
      expect(await resolve('alice', 'trivia-0001')).toMatchObject({ status: 409, error: { details: { heldBy: { reviewer: 'bob' } } } })

      clock += 2 * MIN // past the renewed hold
      expect(await queue('alice')).toContainEqual(['trivia-0001', null])
      expect((await call<TaskDetail>('alice', 'task.detail', { taskId: 'trivia-0001' })).value).toMatchObject({ reservation: null, reservedByOther: false })
      expect((await call<ReserveResult>('alice', 'task.reserve', { taskId: 'trivia-0001' })).value.mine?.reviewer).toBe('alice')
      expect(await resolve('bob', 'trivia-0001')).toMatchObject({ status: 409, error: { details: { heldBy: { reviewer: 'alice' } } } })
      expect((await call('alice', 'task.release', { taskId: 'trivia-0001' })).value).toEqual({ released: true })
      expect((await resolve('bob', 'trivia-0001')).status).toBe(200)
    })
  })
}
