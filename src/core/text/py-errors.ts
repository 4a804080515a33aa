/**
 * Errors worded the way MemPalace's Python prints them, for the CLI's upstream parity: an OS error
 * as `str(OSError)` (`[Errno 2] No such file or directory: 'x'`) and strict UTF-8 decoding with
 * `bytes.decode('utf-8')`'s message (`'utf-8' codec can't decode byte 0xff in position 3:
 * invalid start byte`). Node has the same facts (errno, the failing path), worded differently.
 */
import { constants } from 'node:os'
import { pyRepr } from './py-repr'

// C's strerror() texts (glibc, which Python prints) for the errors file reads and writes meet.
const STRERROR: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EPERM: 'Operation not permitted',
  EROFS: 'Read-only file system',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  ENOSPC: 'No space left on device',
  EEXIST: 'File exists',
  EIO: 'Input/output error',
  EMFILE: 'Too many open files',
  EBUSY: 'Device or resource busy',
  EINVAL: 'Invalid argument',
  ENXIO: 'No such device or address',
  EDQUOT: 'Disk quota exceeded'
}

/** `str(OSError)` for a Node fs error: `[Errno N] <strerror>: '<path>'` (`path` as the caller named it). */
export function pyOsErrorText(err: unknown, path?: string): string {
  const e = err as NodeJS.ErrnoException
  // Not an OS error (e.g. make-dir's one-line ApiError, code 'forbidden'): its own message.
  if (!e || typeof e.code !== 'string' || !/^E[A-Z0-9]+$/.test(e.code)) return err instanceof Error ? err.message : String(err)
  const errno = (constants.errno as Record<string, number>)[e.code]
  const text =
    STRERROR[e.code] ??
    e.message
      .replace(/^[A-Z]+: /, '')
      .replace(/,.*$/, '')
      .replace(/^./, (c) => c.toUpperCase())
  const where = path ?? e.path
  return `[Errno ${errno ?? e.errno}] ${text}${where !== undefined ? `: ${pyRepr(where)}` : ''}`
}

/** A `bytes.decode('utf-8')` failure, with Python's message. */
export class Utf8DecodeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'Utf8DecodeError'
  }
}

const hex = (b: number): string => '0x' + b.toString(16).padStart(2, '0')

/**
 * Decodes UTF-8 strictly, as Python's `bytes.decode('utf-8')`: a BOM is kept, and the first
 * invalid sequence is an error naming its byte(s) and position like CPython does (surrogates,
 * overlong forms and values past U+10FFFF are invalid).
 */
export function decodeUtf8Strict(buf: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf)
  } catch {
    throw new Utf8DecodeError(utf8ErrorText(buf))
  }
}

function utf8ErrorText(buf: Uint8Array): string {
  for (let i = 0; i < buf.length;) {
    const b = buf[i]!
    if (b < 0x80) {
      i++
      continue
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1
    const at = (reason: string, end = i): string =>
      `'utf-8' codec can't decode ${end > i ? `bytes in position ${i}-${end}` : `byte ${hex(b)} in position ${i}`}: ${reason}`
    if (need < 0) return at('invalid start byte')
    // The second byte's range depends on the first (no overlongs, no surrogates, <= U+10FFFF).
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf
    for (let k = 1; k <= need; k++) {
      if (i + k >= buf.length) return at('unexpected end of data', i + k - 1)
      const c = buf[i + k]!
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return at('invalid continuation byte', i + k - 1)
    }
    i += need + 1
  }
  return "'utf-8' codec can't decode the input"
}
