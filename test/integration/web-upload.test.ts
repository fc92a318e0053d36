/**
 * `POST /api/imports.upload` over real HTTP: a slice's body is its raw bytes, streamed to the
 * upload under the slice cap, the per-file and per-login caps counted as the bytes arrive; the
 * call's other arguments ride in UPLOAD_HEADER. Every check of the host still applies to it, and
 * the refusals leave the upload as it was (or, past a cap, delete it) and the connection usable.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_UPLOAD_SLICE_BYTES, UPLOAD_HEADER, uploadHeaderValue, type UploadSlice } from '../../src/shared/contract/upload'
import { dispatch } from '../../src/main/host/dispatch'
import { startWebHost, type WebHost } from '../../src/main/host/web'
import { createService, type Service } from '../../src/main/service'
import { openStore } from '../../src/main/store'
import { rawRequest } from '../helpers/http'
import { EXAMPLE_TRACES } from '../helpers/seed'

/** Past one slice's cap, so a slice meets the slice cap before the file's. */
const PER_FILE = MAX_UPLOAD_SLICE_BYTES + 4 * 1024 ** 2
let dir: string
let uploadsRoot: string
let service: Service
let host: WebHost
const agent = new Agent({ keepAlive: true, maxSockets: 1 })

interface Reply {
  status: number
  body: { ok: boolean; value?: { uploadId: string; bytes: number }; error?: { code: string; message: string } }
  /** The request went out on a connection an earlier one had used. */
  reused: boolean
}

const token = (reviewer: string) => host.logins.find((l) => l.reviewer === reviewer)?.token ?? 'none'
const headersOf = (reviewer: string, slice: Partial<UploadSlice> | null, extra: Record<string, string> = {}): Record<string, string> => ({
  host: `127.0.0.1:${host.port}`,
  authorization: `Bearer ${token(reviewer)}`,
  'content-type': 'application/octet-stream',
  ...(slice === null ? {} : { [UPLOAD_HEADER]: uploadHeaderValue(slice as UploadSlice) }),
  ...extra
})

/** One POST on the shared keep-alive connection; `pieces` are written one by one (chunked when `chunked`). */
function post(headers: Record<string, string>, pieces: Buffer[], opts: { chunked?: boolean; path?: string } = {}): Promise<Reply> {
  const total = pieces.reduce((n, p) => n + p.length, 0)
  const all = opts.chunked === true ? headers : { ...headers, 'content-length': String(total) }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, method: 'POST', path: opts.path ?? '/api/imports.upload', headers: all, agent, setHost: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Reply['body'], reused: req.reusedSocket }))
    })
    req.on('error', reject)
    // A refused body may be answered before it is all sent; the host drains the rest.
    for (const p of pieces) req.write(p)
    req.end()
  })
}

const upload = (reviewer: string, slice: Partial<UploadSlice>, bytes: Buffer, chunked = false) => post(headersOf(reviewer, slice), [bytes], { chunked })
const json = async (reviewer: string, method: string, args: unknown) => {
  const res = await rawRequest(host.port, { method: 'POST', path: `/api/${method}`, headers: { authorization: `Bearer ${token(reviewer)}`, 'content-type': 'application/json' }, body: JSON.stringify(args) })
  return { status: res.status, body: JSON.parse(res.body) as { ok: boolean; value?: Record<string, unknown>; error?: { code: string } } }
}
/** The files waiting in the uploads folder of this process. */
const waiting = (): string[] => readdirSync(uploadsRoot).flatMap((d) => readdirSync(join(uploadsRoot, d)))
const uploaded = (uploadId: string): Buffer => readFileSync(join(uploadsRoot, readdirSync(uploadsRoot)[0], uploadId))

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-web-upload-'))
  uploadsRoot = join(dir, 'uploads')
  mkdirSync(uploadsRoot)
  const renderer = join(dir, 'renderer')
  mkdirSync(renderer)
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><div id="root"></div>')
  const dbLocation = join(dir, 'arbiter.db')
  service = await createService({
    store: await openStore(dbLocation), dbLocation, nativeBinding: null, shell: 'web',
    uploads: { root: uploadsRoot, limits: { perFileBytes: PER_FILE, perLoginBytes: 2 * PER_FILE } }
  })
  host = await startWebHost({ handlers: service.handlers, subscribe: service.subscribe, context: service.context, rendererDir: renderer, reviewers: ['alice', 'bob'] })
  // The operator's own setting (engine settings are an adjudicator's, and no login is one here).
  expect((await dispatch(service.handlers, 'engine.updateSettings', { patch: { autoRefit: false } }, service.context())).ok).toBe(true)
})

afterAll(async () => {
  agent.destroy()
  await host?.close()
  await service?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('imports.upload over HTTP: raw slices', () => {
  it('appends slices sent as raw bytes (declared length or chunked), and imports.run imports the file under its own name', async () => {
    const file = readFileSync(EXAMPLE_TRACES)
    const name = 'Überprüfung — council.trace.jsonl' // past Latin-1: the header escapes it
    const cut = [0, 1000, 2000, file.length]
    let uploadId: string | null = null
    for (let i = 0; i < 3; i++) {
      const r = await upload('alice', { uploadId, fileName: name, offset: cut[i] }, file.subarray(cut[i], cut[i + 1]), i === 1)
      expect(r).toMatchObject({ status: 200, body: { ok: true, value: { bytes: cut[i + 1] } } })
      uploadId = r.body.value!.uploadId
    }
    expect(uploaded(uploadId!)).toEqual(file)
    const run = await json('alice', 'imports.run', { source: { kind: 'upload', uploadId } })
    expect(run.body).toMatchObject({ ok: true, value: { status: 'imported', file: name, tasks: 3 } })
    expect(waiting()).toEqual([])
  })

  it('refuses a slice at the wrong offset (a retry, or one ahead of its turn) and keeps the upload as it was', async () => {
    const first = await upload('alice', { uploadId: null, fileName: 'a.jsonl', offset: 0 }, Buffer.from('0123456789'))
    const { uploadId } = first.body.value!
    const retry = await upload('alice', { uploadId, fileName: 'a.jsonl', offset: 0 }, Buffer.from('0123456789'))
    expect(retry).toMatchObject({ status: 409, body: { ok: false, error: { code: 'conflict', message: expect.stringContaining('holds 10 bytes') } } })
    const ahead = await upload('alice', { uploadId, fileName: 'a.jsonl', offset: 20 }, Buffer.alloc(2 * 1024 ** 2, 65))
    expect(ahead).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } })
    // The refused body was drained, not left in the connection: the next call on it is served.
    const next = await upload('alice', { uploadId, fileName: 'a.jsonl', offset: 10 }, Buffer.from('abc'))
    expect(next).toMatchObject({ status: 200, reused: true, body: { value: { bytes: 13 } } })
    expect(uploaded(uploadId).toString()).toBe('0123456789abc')
    expect(await upload('alice', { uploadId: null, fileName: 'b.jsonl', offset: 5 }, Buffer.from('x'))).toMatchObject({ status: 409 })
  })

  it('answers another login’s upload id as no upload, and appends nothing to it', async () => {
    const mine = await upload('alice', { uploadId: null, fileName: 'mine.jsonl', offset: 0 }, Buffer.from('alice’s'))
    const { uploadId, bytes } = mine.body.value!
    const theirs = await upload('bob', { uploadId, fileName: 'mine.jsonl', offset: bytes }, Buffer.from('bob’s'))
    expect(theirs).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
    expect((await json('bob', 'imports.run', { source: { kind: 'upload', uploadId } })).status).toBe(404)
    expect(uploaded(uploadId).toString()).toBe('alice’s')
  })

  it('aborts a slice that passes the per-file cap as it arrives, and deletes the upload', async () => {
    const first = await upload('bob', { uploadId: null, fileName: 'big.jsonl', offset: 0 }, Buffer.alloc(MAX_UPLOAD_SLICE_BYTES, 66))
    const { uploadId } = first.body.value!
    const second = await upload('bob', { uploadId, fileName: 'big.jsonl', offset: MAX_UPLOAD_SLICE_BYTES }, Buffer.alloc(PER_FILE - MAX_UPLOAD_SLICE_BYTES - 10, 66))
    const { bytes } = second.body.value!
    expect(bytes).toBe(PER_FILE - 10)
    expect(waiting()).toContain(uploadId)
    // Chunked: no length to check first, so the cap is met by the bytes themselves.
    const over = await post(headersOf('bob', { uploadId, fileName: 'big.jsonl', offset: bytes }), [Buffer.alloc(8, 66), Buffer.alloc(64 * 1024, 66)], { chunked: true })
    expect(over).toMatchObject({ status: 400, body: { ok: false, error: { code: 'bad_input', message: expect.stringContaining('upload too large') } } })
    expect(waiting()).not.toContain(uploadId)
    expect(await upload('bob', { uploadId, fileName: 'big.jsonl', offset: bytes }, Buffer.from('x'))).toMatchObject({ status: 404 })
  })

  it('refuses a body that is not application/octet-stream, or a slice without its header, before writing anything', async () => {
    const before = waiting()
    const asJson = await post(headersOf('alice', null, { 'content-type': 'application/json' }), [Buffer.from(JSON.stringify({ fileName: 'a.jsonl', chunk: 'text' }))])
    expect(asJson).toMatchObject({ status: 415, body: { ok: false, error: { code: 'bad_input' } } })
    const form = await post(headersOf('alice', { fileName: 'a.jsonl', offset: 0 }, { 'content-type': 'text/plain' }), [Buffer.from('x')])
    expect(form.status).toBe(415)
    expect((await post(headersOf('alice', null), [Buffer.from('x')])).status).toBe(400)
    for (const bad of ['not json', JSON.stringify({ fileName: 'a', offset: -1 }), JSON.stringify({ fileName: 'a', offset: 0, extra: 1 }), JSON.stringify({ fileName: '', offset: 0 })]) {
      expect((await post(headersOf('alice', null, { [UPLOAD_HEADER]: bad }), [Buffer.from('x')])).status).toBe(400)
    }
    expect(waiting()).toEqual(before)
  })

  it('caps a slice’s body: a declared length over the cap is refused unread, a chunked one as it passes, the upload cut back', async () => {
    const first = await upload('alice', { uploadId: null, fileName: 'c.jsonl', offset: 0 }, Buffer.from('kept'))
    const { uploadId } = first.body.value!
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(host.port, '127.0.0.1', () =>
        socket.write(
          `POST /api/imports.upload HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nAuthorization: Bearer ${token('alice')}\r\nContent-Type: application/octet-stream\r\n` +
            `${UPLOAD_HEADER}: ${uploadHeaderValue({ uploadId, fileName: 'c.jsonl', offset: 4 })}\r\nContent-Length: ${MAX_UPLOAD_SLICE_BYTES + 1}\r\n\r\nxx`
        )
      )
      let text = ''
      socket.on('data', (d: Buffer) => (text += d.toString()))
      socket.on('close', () => resolve(text)) // the host closes: it will not read a body it refused
      socket.on('error', reject)
    })
    expect(reply).toMatch(/^HTTP\/1\.1 413 /)
    const piece = Buffer.alloc(1024 * 1024, 67)
    const chunked = await post(headersOf('alice', { uploadId, fileName: 'c.jsonl', offset: 4 }), Array.from({ length: 17 }, () => piece), { chunked: true })
    expect(chunked).toMatchObject({ status: 413, body: { ok: false, error: { code: 'bad_input' } } })
    expect(uploaded(uploadId).toString()).toBe('kept')
    expect(statSync(join(uploadsRoot, readdirSync(uploadsRoot)[0], uploadId)).size).toBe(4)
  })

  it('passes the host’s checks first: login, Host, Origin, the tab’s session header', async () => {
    const slice = { uploadId: null, fileName: 'x.jsonl', offset: 0 }
    const before = waiting()
    expect((await post(headersOf('alice', slice, { authorization: 'Bearer wrong' }), [Buffer.from('x')])).status).toBe(401)
    expect((await post(headersOf('alice', slice, { host: 'evil.example:80' }), [Buffer.from('x')])).status).toBe(403)
    expect((await post(headersOf('alice', slice, { origin: 'http://evil.example' }), [Buffer.from('x')])).status).toBe(403)
    expect((await post(headersOf('alice', slice, { 'x-arbiter-session': 'bad id!' }), [Buffer.from('x')])).status).toBe(400)
    expect(waiting()).toEqual(before)
    const ok = await post(headersOf('alice', slice, { origin: `http://127.0.0.1:${host.port}`, 'x-arbiter-session': 'tab-0001' }), [Buffer.from('x')])
    expect(ok).toMatchObject({ status: 200, body: { ok: true, value: { bytes: 1 } } })
  })
})
