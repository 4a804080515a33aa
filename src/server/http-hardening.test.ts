import { createServer, request, type ClientRequest, type IncomingMessage } from 'node:http'
import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { raw as rawAt, type RawOptions, type Reply } from '../../test/helpers/http'
import { serveEachTest } from '../../test/helpers/test-server'
import { tmpDir } from '../../test/helpers/tmp'
import { MAX_SSE_CLIENTS, type RunningServer } from './http-server'
import { MAX_REQUEST_BODY } from './request-body'

const TOKEN = 'test-token-0123456789abcdef'
const SECRET = 'outside-secret-7f3a'
let server: RunningServer, staticDir: string
serveEachTest(TOKEN, 60_000, (started) => ({ server, staticDir } = started))

const raw = (path: string, opts: RawOptions = {}): Promise<Reply> => rawAt(server.port, path, opts)
const auth = { authorization: `Bearer ${TOKEN}` }
const json = { ...auth, 'content-type': 'application/json' }
const appInfo = (headers: Record<string, string> = json): Promise<Reply> =>
  raw('/api/call/app.info', { method: 'POST', headers, body: '{}' })

describe('muster serve under hostile or broken requests', () => {
  it('answers a body over the limit with a 413 JSON error, declared or streamed, and keeps serving', async () => {
    const big = Buffer.alloc(MAX_REQUEST_BODY + 1, 0x20)
    const declared = await raw('/api/call/app.info', { method: 'POST', headers: json, body: big })
    expect(declared.status).toBe(413)
    expect(JSON.parse(declared.body)).toEqual({ error: 'request body over 1 MiB', code: 'invalid_input' })
    expect(declared.headers.connection).toBe('close')
    // No Content-Length: chunked, the limit is only found while reading.
    const chunk = Buffer.alloc(256 * 1024, 0x20)
    const streamed = await raw('/api/call/app.info', { method: 'POST', headers: json, chunks: [chunk, chunk, chunk, chunk, chunk] })
    expect(streamed.status).toBe(413)
    expect(JSON.parse(streamed.body).code).toBe('invalid_input')
    // Just under the limit is read and validated as usual.
    const padded = `{"pad":"${' '.repeat(MAX_REQUEST_BODY - 20)}"}`
    expect((await raw('/api/call/app.info', { method: 'POST', headers: json, body: padded })).status).toBe(400)
    expect((await appInfo()).status).toBe(200)
  })

  it('answers a malformed token cookie with 401, not a server error', async () => {
    for (const cookie of ['muster_token=%E0%A4%A', 'a=1; muster_token=%', `muster_token=${TOKEN}%ZZ`]) {
      const r = await raw('/', { headers: { cookie } })
      expect(r.status).toBe(401)
      expect(JSON.parse(r.body).code).toBe('forbidden')
    }
    expect((await raw('/', { headers: { cookie: `muster_token=${encodeURIComponent(TOKEN)}` } })).status).toBe(200)
  })

  it('accepts exactly application/json (parameters allowed, any case) and refuses look-alikes with 415', async () => {
    for (const type of [
      'application/jsonfoo',
      'application/json-patch+json',
      'application/json5',
      'text/plain',
      'application/x-json',
      ''
    ]) {
      const r = await appInfo({ ...auth, 'content-type': type })
      expect([type, r.status]).toEqual([type, 415])
    }
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', ' application/json ']) {
      expect([type, (await appInfo({ ...auth, 'content-type': type })).status]).toEqual([type, 200])
    }
  })

  it('never follows a symbolic link out of the served folder, but serves one that stays inside', async () => {
    const outside = tmpDir()
    writeFileSync(join(outside, 'secret.txt'), SECRET)
    symlinkSync(join(outside, 'secret.txt'), join(staticDir, 'leak.txt'))
    symlinkSync(outside, join(staticDir, 'assets', 'out'))
    symlinkSync(join(staticDir, 'assets', 'app.js'), join(staticDir, 'assets', 'alias.js'))
    for (const path of ['/leak.txt', '/assets/out/secret.txt']) {
      const r = await raw(path, { headers: auth })
      expect(r.body).not.toContain(SECRET)
      expect(r.body).toMatch(/<title>Muster/)
    }
    const inside = await raw('/assets/alias.js', { headers: auth })
    expect(inside.body).toBe('console.log(1)')
  })

  it('answers a malformed request URL with 400', async () => {
    const r = await raw('http://a:99999/', { headers: auth })
    expect(r.status).toBe(400)
    expect(JSON.parse(r.body)).toEqual({ error: 'malformed request URL', code: 'invalid_input' })
  })

  it(`caps live event streams at ${MAX_SSE_CLIENTS}: one more gets 503 with Retry-After, a freed slot is reused`, async () => {
    const open: ClientRequest[] = []
    const stream = (): Promise<{ req: ClientRequest; res: IncomingMessage }> =>
      new Promise((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: server.port, path: `/api/events?token=${TOKEN}`, headers: { host: `127.0.0.1:${server.port}` } },
          (res) => resolve({ req, res })
        )
        req.on('error', (e) => (e.message.includes('aborted') || e.message.includes('socket hang up') ? undefined : reject(e)))
        req.end()
        open.push(req)
      })
    try {
      for (let i = 0; i < MAX_SSE_CLIENTS; i++) expect((await stream()).res.statusCode).toBe(200)
      const refused = await raw(`/api/events?token=${TOKEN}`)
      expect(refused.status).toBe(503)
      expect(refused.headers['retry-after']).toBe('10')
      expect(JSON.parse(refused.body).error).toMatch(/too many live event streams \(32\)/)
      expect((await appInfo()).status).toBe(200)
      open.shift()!.destroy()
      // The server learns of the closed stream asynchronously: retry briefly.
      let next: IncomingMessage | null = null
      for (let i = 0; i < 50 && !next; i++) {
        const s = await stream()
        if (s.res.statusCode === 200) next = s.res
        else await new Promise((r) => setTimeout(r, 20))
      }
      expect(next?.statusCode).toBe(200)
    } finally {
      for (const req of open) req.destroy()
    }
  })

  it('hubs.add takes no token file path: a dashboard caller cannot make Muster send a file of its choosing to a URL', async () => {
    const outside = tmpDir()
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`)
    const seen: string[] = []
    const spy = createServer((req, res) => {
      seen.push(req.headers.authorization ?? '(none)')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(spy.address() as { port: number }).port}`
      const r = await raw('/api/call/hubs.add', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ url, token_file: join(outside, 'secret.txt') })
      })
      expect(r.status).toBe(400)
      expect(JSON.parse(r.body)).toMatchObject({ code: 'invalid_input', error: expect.stringContaining('token_file') })
      expect(r.body).not.toContain(SECRET)
      expect(seen).toEqual([])
      const listed = await raw('/api/call/hubs.list', { method: 'POST', headers: json, body: '{}' })
      expect(JSON.parse(listed.body).hubs).toEqual([])
    } finally {
      await new Promise((resolve) => spy.close(resolve))
    }
  })
})
