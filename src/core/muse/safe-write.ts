/**
 * Compare-and-swap edits of files that agents edit concurrently (spec section 8): read the bytes,
 * compute the edit on the decoded text, write a temp file in the same folder, re-read the target
 * and rename only if its bytes are unchanged; on a change the edit is recomputed on the new
 * content (bounded retries), then a `conflict` is reported. BOM, line endings, final newline and
 * untouched bytes are the edit function's input and survive byte for byte.
 *
 * The remaining window between the final compare and the rename is a few microseconds; POSIX
 * offers no atomic compare-and-rename, so this is as close as a plain file system allows.
 */
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { ApiError } from '../../shared/api'

const BOM = Buffer.from([0xef, 0xbb, 0xbf])

/** Test hooks (a concurrent writer between the read and the rename). */
export interface SafeWriteHooks {
  /** Runs after the temp file is written, before the re-read and rename. */
  beforeRename?: (path: string, attempt: number) => void | Promise<void>
}

let defaultHooks: SafeWriteHooks | undefined

/** Installs hooks used by every `safeEdit` without its own (tests drive the CLI end to end); undefined resets. */
export function setDefaultSafeWriteHooks(hooks: SafeWriteHooks | undefined): void {
  defaultHooks = hooks
}

/** Options of `safeEdit`. */
export interface SafeEditOptions {
  /** Attempts before reporting a conflict (default 3). */
  attempts?: number
  /** Create the file with `edit('')` when it does not exist (default false: not_found). */
  create?: boolean
  hooks?: SafeWriteHooks
}

/** Result of an edit: whether bytes changed and the text now on disk (without BOM). */
export interface SafeEditResult {
  changed: boolean
  created: boolean
  text: string
}

/**
 * Applies `edit` to the file's text (BOM stripped; the BOM is put back). `edit` returns the new
 * text or null for "nothing to do"; it must be pure, since it may run again on fresher content.
 */
export async function safeEdit(path: string, edit: (text: string) => string | null, opts: SafeEditOptions = {}): Promise<SafeEditResult> {
  const attempts = opts.attempts ?? 3
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const before = await readOrNull(path)
    if (!before && !opts.create) throw new ApiError(`${path} does not exist`, 'not_found')
    let mode = 0o644
    if (before) {
      const st = await fs.stat(path)
      mode = st.mode & 0o7777
      if ((mode & 0o222) === 0) throw new ApiError(`${path} is read-only: not changed`, 'forbidden')
    }
    const hasBom = !!before && before.subarray(0, 3).equals(BOM)
    const text = before ? decode(path, before, hasBom) : ''
    const next = edit(text)
    if (next === null || next === text) return { changed: false, created: false, text }
    const bytes = hasBom ? Buffer.concat([BOM, Buffer.from(next, 'utf8')]) : Buffer.from(next, 'utf8')
    const tmp = join(dirname(path), `.${basename(path)}.muster-${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
    try {
      await fs.writeFile(tmp, bytes, { mode, flag: 'wx' })
      await fs.chmod(tmp, mode)
    } catch (err) {
      await fs.rm(tmp, { force: true })
      throw writeError(path, err)
    }
    try {
      await (opts.hooks ?? defaultHooks)?.beforeRename?.(path, attempt)
      const now = await readOrNull(path)
      if (!before) {
        if (now) continue // created by someone else meanwhile: edit their file instead
        await fs.link(tmp, path).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err
        })
        const landed = await readOrNull(path)
        if (landed && landed.equals(bytes)) return { changed: true, created: true, text: next }
        continue
      }
      if (!now) throw new ApiError(`${path} was deleted while Muster was editing it: nothing written`, 'conflict')
      if (!now.equals(before)) continue
      await fs.rename(tmp, path)
      return { changed: true, created: false, text: next }
    } catch (err) {
      if (err instanceof ApiError) throw err
      throw writeError(path, err)
    } finally {
      await fs.rm(tmp, { force: true })
    }
  }
  throw new ApiError(`${path} kept changing while Muster was editing it (${attempts} attempts): nothing written, try again`, 'conflict')
}

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(path)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    throw writeError(path, err)
  }
}

/** Decodes UTF-8, refusing files that would not survive a decode/encode round trip. */
function decode(path: string, bytes: Buffer, hasBom: boolean): string {
  const body = hasBom ? bytes.subarray(3) : bytes
  const text = body.toString('utf8')
  if (!Buffer.from(text, 'utf8').equals(body)) throw new ApiError(`${path} is not valid UTF-8: not changed`, 'invalid_input')
  return text
}

function writeError(path: string, err: unknown): ApiError {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new ApiError(`cannot write ${path}: permission denied`, 'forbidden')
  if (code === 'ENOENT') return new ApiError(`cannot write ${path}: its folder is gone`, 'not_found')
  return new ApiError(`cannot write ${path}: ${(err as Error).message}`, 'internal')
}
