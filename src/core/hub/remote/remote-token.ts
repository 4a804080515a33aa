/**
 * Bearer tokens of remote hubs, kept in Muster's home (`hub-tokens/<key>.token`, mode 0600, folder
 * 0700): `hubs add` stores the token it is given there (pasted in Settings, or read by the CLI from
 * `--token-file`), the registry stores only the relative path, and the token is read back when the
 * hub is opened. No message here ever contains a token.
 */
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { ApiError } from '../../../shared/api-error'
import { makeDirSync } from '../../make-dir'
import { remoteKey } from './remote-url'

/** The folder of token copies inside Muster's home. */
export const TOKENS_DIR = 'hub-tokens'
/** What a bearer token may contain: visible ASCII, no spaces (it travels in an HTTP header). */
const TOKEN_RE = /^[\x21-\x7e]+$/

/** Checks a token's text (trimmed); the error never quotes it. */
export function validToken(text: string, from: string): string {
  const token = text.trim()
  if (!token) throw new ApiError(`${from} is empty: expected the hub server's bearer token`, 'invalid_input')
  if (!TOKEN_RE.test(token))
    throw new ApiError(`${from} does not hold a bearer token (one line of visible ASCII characters)`, 'invalid_input')
  return token
}

/**
 * Stores a hub's token in Muster's home with mode 0600 (written to a temporary file created 0600,
 * then renamed, so no reader ever sees it with wider permissions). Returns the path relative to home.
 */
export function storeToken(home: string, url: string, token: string): string {
  const dir = join(home, TOKENS_DIR)
  makeDirSync(dir, { mode: 0o700 })
  chmodSync(dir, 0o700)
  const rel = join(TOKENS_DIR, `${remoteKey(url)}.token`)
  const file = join(home, rel)
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, token + '\n', { mode: 0o600 })
  chmodSync(tmp, 0o600)
  renameSync(tmp, file)
  return rel
}

/** The absolute path of a stored token file, which must stay inside Muster's home. */
function tokenPath(home: string, rel: string): string {
  const file = resolve(home, rel)
  const inside = relative(resolve(home), file)
  if (!inside || inside.startsWith('..') || isAbsolute(inside))
    throw new ApiError(`hub token path ${rel} is outside Muster's home`, 'invalid_input')
  return file
}

/** Reads a stored token back (null when the hub has none); a missing file is a clear error. */
export function loadToken(home: string, rel: string | null, hubName: string): string | null {
  if (!rel) return null
  const file = tokenPath(home, rel)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new ApiError(
      `the token of hub '${hubName}' is missing from Muster's home (${rel}): add the hub again with its token file`,
      'not_found'
    )
  }
  return validToken(text, `the stored token of hub '${hubName}'`)
}

/** Deletes a stored token (after the hub was removed). */
export function removeToken(home: string, rel: string | null): void {
  if (rel) rmSync(tokenPath(home, rel), { force: true })
}
