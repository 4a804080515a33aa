/**
 * Validation a hub writer must enforce (spec/hub-logstream.md sections 4-5). The hub file has no
 * CHECK constraints, so every rule lives here. Messages use MemPalace's own wording (logstream.py,
 * tasks.py), including Python's `repr` quoting of offending values, so agents see one vocabulary.
 */
import { ARTIFACT_KINDS, EVENT_STATUSES, type ArtifactKind, type EventStatus } from '../../../shared/contract/hub-vocabulary'
import { pyRepr } from '../../text'
import { PyJsonError, pyJsonDumps } from './ids'

export { ARTIFACT_KINDS, EVENT_STATUSES, type ArtifactKind, type EventStatus }

/** A rejected write: bad input, nothing was stored. */
export class HubValidationError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HubValidationError'
  }
}

/** Event type: dotted lowercase identifier (`task.request`, `patch.ready`). */
export const EVENT_TYPE_RE = /^[a-z0-9][a-z0-9_.-]{0,63}$/
/** Task base commits: an abbreviated or full object id, never a branch or tag. */
export const BASE_COMMIT_RE = /^[0-9a-fA-F]{7,64}$/
/** Routing fields (stream, room, agents, ...) are at most this many characters (code points). */
export const MAX_ROUTING_LENGTH = 256
/** Event bodies: UTF-8 bytes. */
export const MAX_BODY_BYTES = 256 * 1024
/** Metadata: UTF-8 bytes of the canonical JSON text. */
export const MAX_METADATA_BYTES = 64 * 1024
/** Artifact content: UTF-8 bytes. */
export const MAX_ARTIFACT_BYTES = 4 * 1024 * 1024

const fail = (message: string): never => {
  throw new HubValidationError(message)
}

const sortedList = (values: readonly string[]): string => [...values].sort().join(', ')

// Python's str.strip() whitespace set (it includes \x1c-\x1f, which String.prototype.trim keeps).
const PY_WS = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const PY_STRIP_RE = new RegExp(`^[${PY_WS}]+|[${PY_WS}]+$`, 'g')

/** Python's `str.strip()`: trims Python's whitespace set. */
export function pyStrip(value: string): string {
  return value.replace(PY_STRIP_RE, '')
}

/** Replaces lone UTF-16 surrogates with U+FFFD, as MemPalace does before storing text. */
export function stripLoneSurrogates(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
}

/** UTF-8 byte length of a string. */
export function utf8Length(value: string): number {
  return Buffer.byteLength(value, 'utf8')
}

/** Validates an event type: required, `^[a-z0-9][a-z0-9_.-]{0,63}$` after trimming. */
export function validateEventType(value: unknown): string {
  if (typeof value !== 'string' || !pyStrip(value)) return fail('type must be a non-empty string')
  const type = pyStrip(value)
  if (!EVENT_TYPE_RE.test(type)) {
    return fail(`type=${pyRepr(type)} is not a valid event type (lowercase letters, digits, '.', '_', '-'; max 64 chars)`)
  }
  return type
}

/**
 * Validates a routing field (stream, room, topic, from_agent, to_agent, correlation_id, branch,
 * base_commit, created_by): trimmed, non-empty, at most 256 characters, no control characters
 * (< 0x20 or 0x7f). Optional fields turn `null`/`undefined`/`''` into null; a blank required
 * field is an error.
 */
export function validateRouting(value: unknown, field: string, required: true): string
export function validateRouting(value: unknown, field: string, required?: boolean): string | null
export function validateRouting(value: unknown, field: string, required = true): string | null {
  if (value === null || value === undefined || value === '') {
    return required ? fail(`${field} must be a non-empty string`) : null
  }
  if (typeof value !== 'string' || !pyStrip(value)) return fail(`${field} must be a non-empty string`)
  const text = stripLoneSurrogates(pyStrip(value))
  if ([...text].length > MAX_ROUTING_LENGTH) {
    return fail(`${field} exceeds maximum length of ${MAX_ROUTING_LENGTH} characters`)
  }
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(text)) return fail(`${field} contains control characters`)
  return text
}

/** Validates a status: null/empty, or one of `open claimed ready applied blocked failed superseded`. */
export function validateStatus(value: unknown): EventStatus | null {
  if (value === null || value === undefined || value === '') return null
  if (typeof value !== 'string' || !(EVENT_STATUSES as readonly string[]).includes(value)) {
    return fail(`status=${pyRepr(value)} is not one of: ${sortedList(EVENT_STATUSES)}`)
  }
  return value as EventStatus
}

const ISO_DATE_RE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
const ISO_UTC_DATETIME_RE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:Z|\+00:00)$/

/** True for a real calendar day (Python's `date(y, m, d)`: year 1..9999, the month's length). */
function calendarDay(y: number, m: number, d: number): boolean {
  return (
    y >= 1 && d <= new Date(Date.UTC(2000, m, 0)).getUTCDate() - (m === 2 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? 1 : 0)
  )
}

/**
 * Validates a temporal filter (upstream `config.sanitize_iso_temporal`): `YYYY-MM-DD` or a UTC
 * `YYYY-MM-DDTHH:MM:SSZ` (`+00:00` becomes `Z`), trimmed, a real calendar date; null/'' -> null.
 */
export function validateIsoTemporal(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === '') return null
  if (typeof value !== 'string') return fail(`${field} must be a string`)
  const text = pyStrip(value)
  const m = ISO_DATE_RE.exec(text) ?? ISO_UTC_DATETIME_RE.exec(text)
  if (!m || !calendarDay(Number(m[1]), Number(m[2]), Number(m[3]))) {
    return fail(`${field}=${pyRepr(text)} is not a valid ISO-8601 date or UTC datetime (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)`)
  }
  return text.endsWith('+00:00') ? text.slice(0, -6) + 'Z' : text
}

/** Validates verbatim text (an event body): a string, no NUL, at most `maxBytes` UTF-8 bytes. Never truncates. */
export function validateBody(value: unknown, maxBytes = MAX_BODY_BYTES, field = 'body'): string {
  if (value === null || value === undefined) return ''
  if (typeof value !== 'string') return fail(`${field} must be a string`)
  if (value.includes('\0')) return fail(`${field} contains null bytes`)
  const text = stripLoneSurrogates(value)
  const size = utf8Length(text)
  if (size > maxBytes) return fail(`${field} is ${size} bytes; maximum is ${maxBytes} bytes`)
  return text
}

/** Validates metadata (a plain JSON object, at most 64 KiB) and returns its canonical JSON text. */
export function validateMetadata(value: unknown): string {
  if (value === null || value === undefined) return '{}'
  if (typeof value !== 'object' || Array.isArray(value)) return fail('metadata must be an object')
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return fail('metadata must be an object')
  let encoded: string
  try {
    encoded = pyJsonDumps(value)
  } catch (err) {
    if (err instanceof PyJsonError) return fail(`metadata is not JSON-serializable: ${err.message}`)
    throw err
  }
  if (utf8Length(encoded) > MAX_METADATA_BYTES) {
    return fail(`metadata exceeds maximum size of ${MAX_METADATA_BYTES} bytes`)
  }
  return encoded
}

/** Validates `artifact_ids`: a list of non-empty strings, de-duplicated keeping the first occurrence. */
export function validateArtifactIds(value: unknown): string[] {
  if (value === null || value === undefined) return []
  if (!Array.isArray(value) || !value.every((a) => typeof a === 'string' && a.length > 0)) {
    return fail('artifact_ids must be a list of artifact id strings')
  }
  return [...new Set(value as string[])]
}

/** Validates an artifact kind: one of `patch file log json note`. */
export function validateArtifactKind(value: unknown): ArtifactKind {
  if (typeof value !== 'string' || !(ARTIFACT_KINDS as readonly string[]).includes(value)) {
    return fail(`kind=${pyRepr(value)} is not one of: ${sortedList(ARTIFACT_KINDS)}`)
  }
  return value as ArtifactKind
}

/** Validates artifact content: a non-empty string, no NUL, at most 4 MiB of UTF-8. */
export function validateArtifactContent(value: unknown, maxBytes = MAX_ARTIFACT_BYTES): string {
  if (typeof value !== 'string' || !value) return fail('content must be a non-empty string')
  if (value.includes('\0')) return fail('content contains null bytes')
  const text = stripLoneSurrogates(value)
  const size = utf8Length(text)
  if (size > maxBytes) return fail(`content is ${size} bytes; maximum is ${maxBytes} bytes`)
  return text
}

/** The patch warnings live in the contract (one text for every hub and screen); re-exported for the hub's callers. */
export { PATCH_WARNING_CRLF, PATCH_WARNING_NO_TRAILING_NEWLINE, patchWarnings } from '../../../shared/patch-warnings'

/** A required task text field (`task <label> must not be empty`); returns it trimmed. */
export function requiredTaskText(value: unknown, label: string): string {
  if (typeof value !== 'string' || !pyStrip(value)) return fail(`task ${label} must not be empty`)
  return pyStrip(value)
}

/** Validates a task base commit: 7-64 hex digits, stored lowercased. */
export function validateBaseCommit(value: unknown): string {
  const text = requiredTaskText(value, 'base commit')
  if (!BASE_COMMIT_RE.test(text)) {
    return fail('task base commit must be a hexadecimal Git object id (at least 7 characters), not a branch or tag')
  }
  return text.toLowerCase()
}

/**
 * Task slug (upstream `task_slug`): lowercase, runs of `[^a-z0-9]` become `_`, trimmed of `_`,
 * first 40 characters (trailing `_` dropped again), `fallback` when empty.
 */
export function taskSlug(value: string, fallback = 'work'): string {
  const slug = value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return slug.slice(0, 40).replace(/_+$/, '') || fallback
}
