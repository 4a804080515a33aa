/**
 * Text given inline or as a file (`--body`/`--body-file`, `--goal`/`--goal-file`,
 * `--done`/`--done-file`), as upstream's `_read_text_arg` reads it: `-` is stdin, `~` is the
 * home folder, bytes are decoded strictly as UTF-8 (no newline translation, a BOM kept, invalid
 * bytes an error with Python's message) and unreadable files fail with Python's OSError text.
 */
import { readFileSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { decodeUtf8Strict, pyOsErrorText } from '../core/text'
import { userHome } from '../core/hub'
import { readProcessStdin, type CliIo } from './output'

/** `os.path.expanduser`: `~` and `~/...` with `$HOME` from the CLI's environment. */
function expandUser(p: string, io: CliIo): string {
  if (p === '~') return userHome(io.env)
  if (p.startsWith('~/')) return userHome(io.env) + p.slice(1)
  return p
}

/** Reads a file's exact bytes as text (`-` = stdin). Errors carry upstream's wording. */
export async function readTextFile(io: CliIo, file: string): Promise<string> {
  if (file === '-') return decodeUtf8Strict(await (io.readStdin ?? readProcessStdin)())
  const path = expandUser(file, io)
  let bytes: Buffer
  try {
    bytes = readFileSync(isAbsolute(path) ? path : resolve(io.cwd, path))
  } catch (err) {
    throw new Error(pyOsErrorText(err, path))
  }
  return decodeUtf8Strict(bytes)
}

/** Inline text, else a file's (`-` = stdin), else `fallback`; both given is upstream's error. */
export async function readTextArg(io: CliIo, inline: string | undefined, file: string | undefined, fallback = ''): Promise<string> {
  if (inline !== undefined && file !== undefined) throw new Error('pass inline text or a file, not both')
  if (file !== undefined) return readTextFile(io, file)
  return inline ?? fallback
}
