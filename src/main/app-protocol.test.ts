import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_CSP } from '../shared/csp'
import { createAppProtocolHandler, PRIVILEGED_SCHEMES } from './app-protocol'

let dir: string
let root: string
let handle: (request: Request) => Promise<Response>

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'muster-app-protocol-'))
  root = join(dir, 'renderer')
  mkdirSync(join(root, 'assets'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Muster</title>')
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)')
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}')
  writeFileSync(join(root, 'assets', 'logo.svg'), '<svg/>')
  writeFileSync(join(root, 'assets', 'font.woff2'), 'w')
  writeFileSync(join(root, 'assets', 'blob.bin'), 'b')
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer')
  mkdirSync(join(dir, 'renderer-evil'))
  writeFileSync(join(dir, 'renderer-evil', 'x.js'), 'sibling with the same prefix')
  symlinkSync(join(dir, 'secret.txt'), join(root, 'assets', 'leak.txt'))
  symlinkSync(dir, join(root, 'up'))
  symlinkSync(join(root, 'assets', 'index-abc.js'), join(root, 'alias.js'))
  handle = createAppProtocolHandler({ root })
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const get = (url: string, method = 'GET'): Promise<Response> => handle(new Request(url, { method }))

describe('the app:// protocol handler', () => {
  it('is registered privileged as a standard, secure scheme with fetch, nothing more', () => {
    expect(PRIVILEGED_SCHEMES).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }
    ])
  })

  it('serves the page and its assets with their MIME types and the CSP', async () => {
    const cases: [string, string][] = [
      ['app://muster/index.html', 'text/html; charset=utf-8'],
      ['app://muster/', 'text/html; charset=utf-8'],
      ['app://muster/assets/index-abc.js', 'text/javascript; charset=utf-8'],
      ['app://muster/assets/index-abc.css', 'text/css; charset=utf-8'],
      ['app://muster/assets/logo.svg', 'image/svg+xml'],
      ['app://muster/assets/font.woff2', 'font/woff2'],
      ['app://muster/assets/blob.bin', 'application/octet-stream']
    ]
    for (const [url, type] of cases) {
      const res = await get(url)
      expect(res.status, url).toBe(200)
      expect(res.headers.get('content-type'), url).toBe(type)
      expect(res.headers.get('content-security-policy'), url).toBe(APP_CSP)
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff')
    }
    expect(await (await get('app://muster/index.html#/approvals?x=1')).text()).toContain('<title>Muster</title>')
    expect((await get('app://muster/assets/index-abc.js')).headers.get('cache-control')).toContain('immutable')
    expect((await get('app://muster/index.html')).headers.get('cache-control')).toBe('no-cache')
  })

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('app://muster/index.html', 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const post = await get('app://muster/index.html', 'POST')
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
  })

  it('answers 404 for missing files and folders', async () => {
    for (const url of ['app://muster/nope.js', 'app://muster/assets', 'app://muster/assets/', 'app://muster/index.html/x']) {
      const res = await get(url)
      expect(res.status, url).toBe(404)
      expect(res.headers.get('content-security-policy'), url).toBe(APP_CSP)
    }
  })

  it('refuses path traversal, plain or encoded, with a 404', async () => {
    for (const url of [
      'app://muster/../secret.txt',
      'app://muster/%2e%2e/secret.txt',
      'app://muster/..%2fsecret.txt',
      'app://muster/assets/..%2f..%2fsecret.txt',
      'app://muster/%2e%2e%2fsecret.txt',
      'app://muster/..%5csecret.txt',
      'app://muster/%2e%2e%2frenderer-evil%2fx.js',
      'app://muster/index.html%00.js',
      'app://muster/%E0%A4%A'
    ]) {
      const res = await get(url)
      expect(res.status, url).toBe(404)
      expect(await res.text(), url).not.toContain('outside the renderer')
    }
  })

  it('refuses symbolic links that lead out of the renderer folder, follows those that stay inside', async () => {
    expect((await get('app://muster/assets/leak.txt')).status).toBe(404)
    expect((await get('app://muster/up/secret.txt')).status).toBe(404)
    const inside = await get('app://muster/alias.js')
    expect(inside.status).toBe(200)
    expect(await inside.text()).toBe('console.log(1)')
  })

  it('serves only its own host and scheme', async () => {
    for (const url of ['app://evil/index.html', 'app://muster.evil/index.html', 'https://muster/index.html']) {
      expect((await get(url)).status, url).toBe(404)
    }
  })
})
