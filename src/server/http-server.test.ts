import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { raw as rawAt, type RawOptions, type Reply } from '../../test/helpers/http'
import { serveEachTest } from '../../test/helpers/test-server'
import { makeProject, tmpDir } from '../../test/helpers/tmp'
import { type RunningServer } from './http-server'

const TOKEN = 'test-token-0123456789abcdef'
let server: RunningServer
serveEachTest(TOKEN, 50, (started) => ({ server } = started))

const raw = (path: string, opts: RawOptions = {}): Promise<Reply> => rawAt(server.port, path, opts)

const auth = { authorization: `Bearer ${TOKEN}` }
const json = { ...auth, 'content-type': 'application/json' }

describe('muster serve', () => {
  it('binds 127.0.0.1 and prints a URL with the token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(server.openUrl).toBe(`${server.url}?token=${TOKEN}`)
  })

  it('refuses requests without the token or with a wrong one, for pages and API alike', async () => {
    expect((await raw('/')).status).toBe(401)
    expect((await raw('/assets/app.js')).status).toBe(401)
    expect(
      (await raw('/api/call/projects.list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status
    ).toBe(401)
    expect((await raw('/api/events?token=wrong')).status).toBe(401)
    expect((await raw('/', { headers: { authorization: 'Bearer nope' } })).status).toBe(401)
  })

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin even with the token', async () => {
    const host = await raw('/', { headers: { ...auth, host: `evil.example:${server.port}` } })
    expect(host.status).toBe(403)
    expect(JSON.parse(host.body).error).toMatch(/foreign Host/)
    const origin = await raw('/api/call/projects.list', {
      method: 'POST',
      headers: { ...json, origin: 'https://evil.example' },
      body: '{}'
    })
    expect(origin.status).toBe(403)
    expect(
      (
        await raw('/api/call/projects.list', {
          method: 'POST',
          headers: { ...json, origin: `http://localhost:${server.port}` },
          body: '{}'
        })
      ).status
    ).toBe(200)
  })

  it('serves the page with ?token=, sets an HttpOnly SameSite cookie, and accepts the cookie after', async () => {
    const page = await raw(`/?token=${TOKEN}`)
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/)
    const cookie = String(page.headers['set-cookie'])
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    const asset = await raw('/assets/app.js', { headers: { cookie: cookie.split(';')[0]! } })
    expect(asset.status).toBe(200)
    expect(asset.headers['content-type']).toMatch(/javascript/)
  })

  it('never serves files outside the renderer folder', async () => {
    const res = await raw('/%2e%2e/%2e%2e/etc/passwd', { headers: auth })
    expect(res.body).not.toMatch(/root:/)
    expect(res.body).toMatch(/<title>Muster/)
  })

  it('calls methods with JSON and maps errors to status codes', async () => {
    const ok = await raw('/api/call/app.info', { method: 'POST', headers: json, body: '{}' })
    expect(ok.status).toBe(200)
    expect(JSON.parse(ok.body)).toMatchObject({ transport: 'http', projectCount: 0 })
    const bad = await raw('/api/call/projects.add', { method: 'POST', headers: json, body: '{"path": 3}' })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'invalid_input' })
    expect((await raw('/api/call/projects.add', { method: 'POST', headers: json, body: '{not json' })).status).toBe(400)
    expect((await raw('/api/call/nope', { method: 'POST', headers: json, body: '{}' })).status).toBe(404)
    expect((await raw('/api/call/app.info', { method: 'GET', headers: auth })).status).toBe(405)
    expect((await raw('/api/call/app.info', { method: 'POST', headers: auth, body: '{}' })).status).toBe(415)
    const missing = await raw('/api/call/projects.remove', { method: 'POST', headers: json, body: '{"name":"ghost"}' })
    expect(missing.status).toBe(404)
  })

  it('streams pushed events over SSE', async () => {
    const received = new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path: `/api/events?token=${TOKEN}`, headers: { host: `127.0.0.1:${server.port}` } },
        (res) => {
          expect(res.headers['content-type']).toMatch(/text\/event-stream/)
          let buf = ''
          res.on('data', (d) => {
            buf += d
            if (buf.includes('event: projects.changed')) {
              resolve(buf)
              req.destroy()
            }
          })
        }
      )
      req.on('error', (e) => (e.message.includes('aborted') ? undefined : reject(e)))
      req.end()
    })
    await new Promise((r) => setTimeout(r, 50))
    const root = makeProject(tmpDir(), 'muse', { build: '<!-- L0: v1 | a | b -->\n' })
    await raw('/api/call/projects.add', { method: 'POST', headers: json, body: JSON.stringify({ path: root }) })
    const frames = await received
    expect(frames).toMatch(/event: projects\.changed\ndata: \{"at":"[^"]+"\}\n\n/)
  })
})
