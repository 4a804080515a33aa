/**
 * Request guards for `muster serve`: the token (header, query or cookie), and Host/Origin checks
 * that stop DNS-rebinding and cross-site pages from reaching the API.
 */
import { timingSafeEqual, randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { hostname, networkInterfaces } from 'node:os'

/** Name of the cookie set after the first authenticated page load. */
export const TOKEN_COOKIE = 'muster_token'

/** A fresh random token (256 bits, hex). */
export function newToken(): string {
  return randomBytes(32).toString('hex')
}

/** Constant-time string comparison. */
export function sameToken(a: string, b: string): boolean {
  const ab = Buffer.from(a)
  const bb = Buffer.from(b)
  return ab.length === bb.length && timingSafeEqual(ab, bb)
}

/** Extracts the token a request presents: bearer header, `?token=`, or the cookie. */
export function presentedToken(req: IncomingMessage, url: URL): string | null {
  const auth = req.headers.authorization
  if (auth && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim()
  const q = url.searchParams.get('token')
  if (q) return q
  const cookie = req.headers.cookie
  if (cookie) {
    for (const part of cookie.split(';')) {
      const [k, ...v] = part.trim().split('=')
      if (k !== TOKEN_COOKIE) continue
      try {
        return decodeURIComponent(v.join('='))
      } catch {
        return null // malformed percent-encoding: no usable token (401), not a server error
      }
    }
  }
  return null
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]']

/** Host header values (`name:port`) the server answers to. */
export function allowedHosts(boundHost: string, port: number, lanNames: readonly string[] = machineNames()): Set<string> {
  const names = new Set(LOOPBACK_NAMES)
  const any = boundHost === '0.0.0.0' || boundHost === '::'
  // bound to every address: the machine's own names and addresses are its Host (still never a foreign name)
  for (const n of any ? lanNames : [boundHost]) names.add(n.includes(':') ? `[${n}]` : n.toLowerCase())
  return new Set([...names].map((n) => `${n}:${port}`))
}

/** This machine's host name and interface addresses (what a browser on the LAN puts in Host). */
export function machineNames(): string[] {
  const out = [hostname()]
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.push(a.address.replace(/%.*$/, ''))
  return out
}

/** Whether an address to bind is this machine's loopback only (nothing else on the network reaches it). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

/** Why a request must be refused for its Host or Origin, or null when it may proceed. */
export function foreignRequestReason(req: IncomingMessage, hosts: Set<string>, protocol: 'http:' | 'https:' = 'http:'): string | null {
  const host = (req.headers.host ?? '').toLowerCase()
  if (!hosts.has(host)) return `foreign Host header '${host}'`
  const origin = req.headers.origin
  if (origin !== undefined && origin !== 'null') {
    let o: URL
    try {
      o = new URL(origin)
    } catch {
      return `malformed Origin '${origin}'`
    }
    if (o.protocol !== protocol || !hosts.has(o.host.toLowerCase())) return `foreign Origin '${origin}'`
  } else if (origin === 'null') {
    return "foreign Origin 'null'"
  }
  return null
}
