/**
 * Reading an operator's token file for `muster hubs add --url URL --token-file F`. Only the CLI
 * (the operator's own shell) reads token files: the API's `hubs.add` carries a pasted token and
 * never a path, so a caller of the dashboard API cannot make Muster read an arbitrary one-line
 * file and send it as a bearer token to a URL of its choosing (a lint rule keeps handlers, the
 * server and the main process from importing this module).
 */
import { readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { ApiError } from '../../../shared/api-error'
import { validToken } from './remote-token'

/** A token file larger than this is not a token (bearer tokens are a few dozen characters). */
const MAX_TOKEN_FILE_BYTES = 16 * 1024

function unreadable(file: string, err: unknown): ApiError {
  return new ApiError(`cannot read token file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`, 'invalid_input')
}

/**
 * Reads and checks a token file: `~/` is `home`, a relative path is taken from `cwd`.
 * Only a regular file of at most 16 KiB is read (a FIFO or a device would block or never end);
 * every refusal is one line that never quotes the file's content.
 */
export function readTokenFile(file: string, cwd: string, home: string = homedir()): string {
  const path = file.startsWith('~/') ? join(home, file.slice(2)) : resolve(cwd, file)
  let stats
  try {
    stats = statSync(path)
  } catch (err) {
    throw unreadable(path, err)
  }
  if (!stats.isFile()) throw new ApiError(`token file ${path} is not a regular file`, 'invalid_input')
  if (stats.size > MAX_TOKEN_FILE_BYTES)
    throw new ApiError(`token file ${path} is ${stats.size} bytes: not a bearer token`, 'invalid_input')
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw unreadable(path, err)
  }
  return validToken(text, `token file ${path}`)
}
