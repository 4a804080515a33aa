/**
 * `muster serve --host` beyond loopback (issue 20, point 5): HTTPS with --tls-cert/--tls-key, the
 * token and the Host/Origin checks unchanged (a LAN name of this machine is a Host, a foreign one
 * is not). Issue 31 point 8: a LAN address without TLS is refused unless --insecure-lan (then a
 * warning); HSTS under TLS; a bad certificate or key is named; app.info says https.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import type { IncomingHttpHeaders } from 'node:http'
import { request } from 'node:https'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { tmpDir } from '../../test/helpers/tmp'
import { selfSignedFiles } from '../../test/helpers/self-signed'
import { runCli } from '../cli/index'
import { createService } from '../core/root'
import type { MusterService } from '../core/service-types'
import { allowedHosts, isLoopbackHost } from './auth'
import { startServer, type RunningServer } from './http-server'

const TOKEN = 'test-token-0123456789abcdef'

/** A self-signed certificate for 127.0.0.1 (openssl), as files. */
const selfSigned = (): { cert: string; key: string } => selfSignedFiles('rsa')

/** One HTTPS request (the self-signed certificate accepted); its status and body. */
function httpsCall(
  port: number,
  path: string,
  headers: Record<string, string>
): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers, rejectUnauthorized: false }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => (body += d.toString()))
      res.on('end', () => done({ status: res.statusCode ?? 0, body, headers: res.headers }))
    })
    req.on('error', fail)
    req.end('{}')
  })
}

let service: MusterService | undefined
let server: RunningServer | undefined
afterEach(async () => {
  await server?.close()
  await service?.close()
  server = service = undefined
})

/** `muster serve` in process on a new home and a free port with `args`: its exit code and what it wrote to stderr. */
async function run(...args: string[]): Promise<{ code: number; err: string }> {
  let err = ''
  const code = await runCli(['serve', '--home', tmpDir(), '--port', '0', ...args], {
    stdout: () => undefined,
    stderr: (t) => (err += t),
    env: {},
    cwd: process.cwd()
  })
  return { code, err }
}

describe('muster serve beyond loopback', () => {
  it('bound to every address, takes this machine’s LAN names as Host, never a foreign one', () => {
    const hosts = allowedHosts('0.0.0.0', 8080, ['box', '192.168.1.20', 'fe80::1'])
    expect([...hosts].sort()).toEqual(
      ['127.0.0.1:8080', 'localhost:8080', '[::1]:8080', 'box:8080', '192.168.1.20:8080', '[fe80::1]:8080'].sort()
    )
    expect(hosts.has('evil.example:8080')).toBe(false)
    expect(isLoopbackHost('127.0.0.1')).toBe(true)
    expect(isLoopbackHost('0.0.0.0')).toBe(false)
    expect(isLoopbackHost('192.168.1.20')).toBe(false)
  })

  it('serves HTTPS with the certificate; the token and the Host/Origin checks hold (an http: Origin is foreign)', async () => {
    const { cert, key } = selfSigned()
    const staticDir = tmpDir()
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Muster</title>')
    service = await createService({ home: tmpDir(), transport: 'http', watch: false })
    const { readFileSync } = await import('node:fs')
    server = await startServer({ service, token: TOKEN, staticDir, tls: { cert: readFileSync(cert), key: readFileSync(key) } })
    expect(server.url).toBe(`https://127.0.0.1:${server.port}/`)
    const json = { 'content-type': 'application/json', host: `127.0.0.1:${server.port}` }
    const ok = await httpsCall(server.port, '/api/call/app.info', { ...json, authorization: `Bearer ${TOKEN}` })
    expect(ok.status).toBe(200)
    expect(ok.headers['strict-transport-security']).toBe('max-age=31536000')
    const refused = await httpsCall(server.port, '/api/call/app.info', json)
    expect(refused.status).toBe(401)
    expect(refused.headers['strict-transport-security']).toBe('max-age=31536000')
    const foreignHost = await httpsCall(server.port, '/api/call/app.info', {
      ...json,
      authorization: `Bearer ${TOKEN}`,
      host: 'evil.example'
    })
    expect(foreignHost.status).toBe(403)
    const httpOrigin = await httpsCall(server.port, '/api/call/app.info', {
      ...json,
      authorization: `Bearer ${TOKEN}`,
      origin: `http://127.0.0.1:${server.port}`
    })
    expect(httpOrigin.status).toBe(403)
    const sameOrigin = await httpsCall(server.port, '/api/call/app.info', {
      ...json,
      authorization: `Bearer ${TOKEN}`,
      origin: `https://127.0.0.1:${server.port}`
    })
    expect(sameOrigin.status).toBe(200)
  })

  it('refuses half a TLS pair and an unreadable file (exit 1, nothing served)', async () => {
    expect(await run('--tls-cert', 'x.pem')).toEqual({ code: 1, err: 'muster: --tls-cert and --tls-key go together\n' })
    const r = await run('--tls-cert', '/nonexistent/c.pem', '--tls-key', '/nonexistent/k.pem')
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/^muster: cannot read the TLS certificate \/nonexistent\/c\.pem: ENOENT\n$/)
  })

  const bin = builtCli()
  /** Starts the built `muster serve` with `args`; resolves with its first stdout line and stderr, then stops it. */
  function serveOnce(...args: string[]): Promise<{ out: string; err: string }> {
    return new Promise((done, fail) => {
      const p = spawn(process.execPath, [bin, 'serve', '--home', tmpDir(), '--port', '0', '--json', ...args], {
        env: { ...process.env, MUSTER_NO_BACKGROUND: '1' }
      })
      let out = ''
      let err = ''
      p.stderr.on('data', (d: Buffer) => (err += d.toString()))
      p.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('"url"')) p.kill('SIGTERM')
      })
      p.on('close', () => (out ? done({ out, err }) : fail(new Error(err))))
    })
  }

  it('refuses a LAN address without TLS unless --insecure-lan (then warns); loopback and TLS start quietly', async () => {
    const refused = spawnSync(process.execPath, [bin, 'serve', '--home', tmpDir(), '--port', '0', '--host', '0.0.0.0'], {
      encoding: 'utf8',
      env: { ...process.env, MUSTER_NO_BACKGROUND: '1' },
      timeout: 60_000
    })
    expect(refused.status).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toBe(
      'muster: refusing to serve 0.0.0.0 without TLS: the token and every answer would cross the network in clear text. ' +
        'Pass --tls-cert FILE --tls-key FILE, or --insecure-lan to serve it in clear anyway\n'
    )
    const lan = await serveOnce('--host', '0.0.0.0', '--insecure-lan')
    expect(lan.err).toMatch(/^warning: serving 0\.0\.0\.0 beyond this machine without TLS \(--insecure-lan\): .*clear text$/m)
    expect(JSON.parse(lan.out).url).toMatch(/^http:\/\//)
    expect((await serveOnce()).err).not.toContain('without TLS')
    const { cert, key } = selfSigned()
    const tls = await serveOnce('--host', '0.0.0.0', '--tls-cert', cert, '--tls-key', key)
    expect(tls.err).not.toContain('without TLS')
    expect(JSON.parse(tls.out).url).toMatch(/^https:\/\//)
  }, 90_000)

  it('app.info reports https over TLS and http without; HSTS only under TLS', async () => {
    const { cert, key } = selfSigned()
    const staticDir = tmpDir()
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Muster</title>')
    const { readFileSync } = await import('node:fs')
    // the transport as `muster serve` builds the service for each
    service = await createService({ home: tmpDir(), transport: 'https', watch: false })
    server = await startServer({ service, token: TOKEN, staticDir, tls: { cert: readFileSync(cert), key: readFileSync(key) } })
    const auth = { 'content-type': 'application/json', host: `127.0.0.1:${server.port}`, authorization: `Bearer ${TOKEN}` }
    expect(JSON.parse((await httpsCall(server.port, '/api/call/app.info', auth)).body)).toMatchObject({ transport: 'https' })
    await server.close()
    await service.close()
    service = await createService({ home: tmpDir(), transport: 'http', watch: false })
    server = await startServer({ service, token: TOKEN, staticDir })
    const plain = await fetch(`${server.url}api/call/app.info`, { method: 'POST', headers: auth, body: '{}' })
    expect(plain.headers.get('strict-transport-security')).toBeNull()
    expect(await plain.json()).toMatchObject({ transport: 'http' })
  })

  it('the built serve: --tls-* makes app.info say https', async () => {
    const { cert, key } = selfSigned()
    const home = tmpDir()
    const p = spawn(process.execPath, [bin, 'serve', '--home', home, '--port', '0', '--json', '--tls-cert', cert, '--tls-key', key], {
      env: { ...process.env, MUSTER_NO_BACKGROUND: '1' }
    })
    try {
      let out = ''
      p.stdout.on('data', (d: Buffer) => (out += d.toString()))
      const url = await new Promise<string>((done, fail) => {
        p.stdout.on('data', () => out.includes('\n') && done((JSON.parse(out) as { url: string }).url))
        p.on('close', () => fail(new Error('serve ended before printing its URL')))
      })
      const u = new URL(url)
      const info = await httpsCall(Number(u.port), '/api/call/app.info', {
        'content-type': 'application/json',
        host: u.host,
        authorization: `Bearer ${u.searchParams.get('token')}`
      })
      expect(JSON.parse(info.body)).toMatchObject({ transport: 'https', home })
    } finally {
      p.kill('SIGTERM')
    }
  }, 60_000)

  it('names the bad file: not PEM, a key given as the certificate, a key of another certificate, an encrypted key', async () => {
    const a = selfSigned()
    const b = selfSigned()
    const dir = tmpDir()
    const der = join(dir, 'cert.der')
    execFileSync('openssl', ['x509', '-in', a.cert, '-outform', 'DER', '-out', der])
    const garbage = join(dir, 'garbage.pem')
    writeFileSync(garbage, 'not a certificate\n')
    const damaged = join(dir, 'damaged.pem')
    writeFileSync(damaged, '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n')
    const locked = join(dir, 'locked.pem')
    execFileSync('openssl', ['pkey', '-in', a.key, '-aes256', '-passout', 'pass:secret', '-out', locked])
    const cases: [string[], RegExp][] = [
      [
        ['--tls-cert', der, '--tls-key', a.key],
        new RegExp(`^muster: the TLS certificate ${der} is not a PEM certificate \\(no "-----BEGIN" line`)
      ],
      [['--tls-cert', garbage, '--tls-key', a.key], new RegExp(`^muster: the TLS certificate ${garbage} is not a PEM certificate`)],
      [['--tls-cert', a.key, '--tls-key', a.key], new RegExp(`^muster: the TLS certificate ${a.key} is a private key, not a certificate`)],
      [
        ['--tls-cert', a.cert, '--tls-key', a.cert],
        new RegExp(`^muster: the TLS private key ${a.cert} is a certificate, not a private key`)
      ],
      [
        ['--tls-cert', a.cert, '--tls-key', b.key],
        new RegExp(`^muster: the TLS key ${b.key} does not belong to the certificate ${a.cert}\n$`)
      ],
      [['--tls-cert', damaged, '--tls-key', a.key], new RegExp(`^muster: the TLS certificate ${damaged} cannot be used: \\S`)],
      [['--tls-cert', a.cert, '--tls-key', locked], new RegExp(`^muster: the TLS private key ${locked} is encrypted with a passphrase`)]
    ]
    for (const [args, want] of cases) {
      const r = await run(...args)
      expect(r.code, args.join(' ')).toBe(1)
      expect(r.err, args.join(' ')).toMatch(want)
      expect(r.err).not.toMatch(/routines::|^error:/)
      expect(r.err.split('\n')).toHaveLength(2)
    }
  })
})
