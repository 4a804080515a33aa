/**
 * Remote hub addresses (spec/hub-logstream.md section 8): the base URL of a MemPalace hub server
 * (`mempalace serve`), normalised so one server has one registry key, plus the names derived from
 * it (a default hub name, the key of its files in Muster's home).
 */
import { createHash } from 'node:crypto'
import { ApiError } from '../../../shared/api-error'

/** True when `text` looks like a URL rather than a palace path. */
export function isHubUrl(text: string): boolean {
  return /^https?:\/\//i.test(text.trim())
}

/**
 * The canonical base URL of a hub server: http(s), a host, no credentials, query or fragment, no
 * trailing slash (`http://Host:8765/` -> `http://host:8765`). Bad input is one clear line.
 */
export function normalizeHubUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw new ApiError(`invalid hub URL '${text.trim()}': expected http://host:port`, 'invalid_input')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(`invalid hub URL '${text.trim()}': only http and https hub servers are supported`, 'invalid_input')
  }
  if (url.username || url.password)
    throw new ApiError('a hub URL must not carry credentials: pass the token in a token file', 'invalid_input')
  if (url.search || url.hash)
    throw new ApiError(`invalid hub URL '${text.trim()}': no query or fragment (the server's base URL)`, 'invalid_input')
  const path = url.pathname.replace(/\/+$/, '')
  return `${url.protocol}//${url.host}${path}`
}

/** A default registry name for a hub URL: its host and port (`127.0.0.1-8765`). */
export function defaultRemoteName(url: string): string {
  const u = new URL(url)
  const base = `${u.hostname}${u.port ? `-${u.port}` : ''}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '')
  return base.slice(0, 64) || 'remote'
}

/** The key naming a remote hub's files in Muster's home (token, mirror): 16 hex of its URL's sha256. */
export function remoteKey(url: string): string {
  return createHash('sha256').update(url, 'utf8').digest('hex').slice(0, 16)
}
