/**
 * The installable app as `muster serve` serves it (issue 35, point 1): the manifest, its icons and
 * the service worker answer without the token (a browser fetches them without cookies) and hold
 * nothing of the operator's; the Host check still holds; the worker's scope and headers let a
 * browser install it under the app's CSP; it never caches the API.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { raw as rawAt, type RawOptions, type Reply } from '../../test/helpers/http'
import { serveEachTest } from '../../test/helpers/test-server'
import { parseCsp } from '../shared/csp'
import { type RunningServer } from './http-server'
import { appShell, START_URL } from './web-app'

const TOKEN = 'web-app-token-0123456789abcdef'
let server: RunningServer
let staticDir: string
serveEachTest(TOKEN, 50, (started) => ({ server, staticDir } = started))

const raw = (path: string, opts: RawOptions = {}): Promise<Reply> => rawAt(server.port, path, opts)

describe('the installable app', () => {
  it('serves the manifest without the token: standalone, Muster icons, opening on the needs-you queue', async () => {
    const r = await raw('/manifest.webmanifest')
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/^application\/manifest\+json/)
    const m = JSON.parse(r.body) as Record<string, unknown>
    expect(m).toMatchObject({ name: 'Muster', display: 'standalone', scope: '/', start_url: START_URL })
    expect(START_URL).toBe('/#/needs')
    expect(m.icons).toEqual(expect.arrayContaining([expect.objectContaining({ src: '/icons/icon.png', type: 'image/png' })]))
    expect(r.body).not.toContain(TOKEN)
    expect(r.headers['set-cookie']).toBeUndefined()
    // the page itself still needs the token
    expect((await raw('/')).status).toBe(401)
    expect((await raw('/manifest.webmanifest?x=1')).status).toBe(200)
    expect((await raw('/manifest.webmanifest', { method: 'POST' })).status).toBe(405)
  })

  it('still refuses a foreign Host for them (DNS rebinding)', async () => {
    for (const path of ['/manifest.webmanifest', '/sw.js', '/icons/icon.png'])
      expect((await raw(path, { headers: { host: `evil.example:${server.port}` } })).status).toBe(403)
  })

  it('serves the worker at the root with its scope, no-cache and the CSP that allows it', async () => {
    const r = await raw('/sw.js')
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/^text\/javascript/)
    expect(r.headers['service-worker-allowed']).toBe('/')
    expect(r.headers['cache-control']).toBe('no-cache')
    const csp = parseCsp(String(r.headers['content-security-policy']))
    expect(csp.get('worker-src')).toEqual(["'self'"])
    expect(csp.get('manifest-src')).toEqual(["'self'"])
    expect(csp.get('script-src')).toEqual(["'self'"])
    expect(r.body).not.toContain(TOKEN)
    // the API and the event stream are never answered from a cache
    expect(r.body).toMatch(/url\.pathname\.startsWith\('\/api\/'\)\) return/)
    // it parses as a script
    expect(() => new Function(r.body)).not.toThrow()
  })

  it('caches the page and the assets it names, versioned by the page', async () => {
    writeFileSync(
      join(staticDir, 'index.html'),
      '<script type="module" src="/assets/index-abc.js"></script><link href="/assets/index-x.css">'
    )
    const one = await appShell(staticDir)
    expect(one.files).toEqual(['/', '/assets/index-abc.js', '/assets/index-x.css'])
    expect((await raw('/sw.js')).body).toContain(JSON.stringify(one.files))
    writeFileSync(join(staticDir, 'index.html'), '<script type="module" src="/assets/index-def.js"></script>')
    const two = await appShell(staticDir)
    expect(two.version).not.toBe(one.version)
    expect((await raw('/sw.js')).body).toContain(`muster-shell-${two.version}`)
  })

  it('serves the icons from the build without the token, and 404 when the build has none', async () => {
    expect((await raw('/icons/icon.png')).status).toBe(404)
    mkdirSync(join(staticDir, 'icons'))
    writeFileSync(join(staticDir, 'icons', 'icon.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    const r = await raw('/icons/icon.png')
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('image/png')
    // other files of the build are not opened up
    mkdirSync(join(staticDir, 'icons', 'more'))
    writeFileSync(join(staticDir, 'icons', 'more', 'x.png'), 'x')
    expect((await raw('/icons/more/x.png')).status).toBe(401)
  })
})
