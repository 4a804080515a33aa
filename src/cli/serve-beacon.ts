/**
 * `<home>/serve.json`: where a running `muster serve` of this home can be reached (its base URL and
 * process id, never its token), so that `muster approvals decide … allow` and `muster presence`
 * can send the operator there to confirm with an authenticator. The URL names a host, not an
 * address (`http://localhost:<port>`): WebAuthn works only on host names.
 */
import { readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { processAlive } from '../core/process-alive'

const FILE = 'serve.json'

/** The base URL a browser uses for a serve bound to `host`: `localhost` for loopback, the machine's name for every address. */
export function servedBase(host: string, port: number, tls: boolean): string {
  const name = host === '0.0.0.0' || host === '::' ? hostname().toLowerCase() : /^(127\.|::1$|localhost$)/.test(host) ? 'localhost' : host
  return `${tls ? 'https' : 'http'}://${name.includes(':') ? `[${name}]` : name}:${port}`
}

/** Writes the beacon; `remove` takes it away again (only if it is still this process's). */
export function writeServeBeacon(home: string, url: string): { remove(): void } {
  const file = join(home, FILE)
  const tmp = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, JSON.stringify({ url, pid: process.pid, started_at: new Date().toISOString() }), { mode: 0o600 })
    renameSync(tmp, file)
  } catch {
    // a home that cannot be written: the commands say to start muster serve (and a full disk keeps no temp)
    try {
      rmSync(tmp, { force: true })
    } catch {
      /* none was made */
    }
  }
  return {
    remove() {
      try {
        if ((JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid === process.pid) unlinkSync(file)
      } catch {
        // gone already
      }
    }
  }
}

/** The base URL of this home's running `muster serve`, or null when none runs. */
export function runningServe(home: string): string | null {
  try {
    const o = JSON.parse(readFileSync(join(home, FILE), 'utf8')) as { url?: unknown; pid?: unknown }
    if (typeof o.url !== 'string' || typeof o.pid !== 'number' || !processAlive(o.pid)) return null
    return o.url
  } catch {
    return null
  }
}
