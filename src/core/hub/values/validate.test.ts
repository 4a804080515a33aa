import { pyRepr } from '../../text/py-repr'
import { describe, it, expect } from 'vitest'
import {
  HubValidationError,
  patchWarnings,
  PATCH_WARNING_CRLF,
  PATCH_WARNING_NO_TRAILING_NEWLINE,
  pyStrip,
  taskSlug,
  validateArtifactContent,
  validateArtifactIds,
  validateArtifactKind,
  validateBaseCommit,
  validateBody,
  validateEventType,
  validateMetadata,
  validateRouting,
  validateStatus
} from './validate'

const rejects = (fn: () => unknown, message: string) => {
  expect(fn).toThrow(HubValidationError)
  expect(fn).toThrow(message)
}

describe('event type', () => {
  it('accepts dotted lowercase identifiers, trimmed', () => {
    expect(validateEventType('task.request')).toBe('task.request')
    expect(validateEventType('  patch.ready ')).toBe('patch.ready')
    expect(validateEventType('a'.repeat(64))).toBe('a'.repeat(64))
  })
  it('rejects the rest with the upstream message', () => {
    rejects(() => validateEventType(''), 'type must be a non-empty string')
    rejects(() => validateEventType(undefined), 'type must be a non-empty string')
    rejects(
      () => validateEventType('Task.Request'),
      "type='Task.Request' is not a valid event type (lowercase letters, digits, '.', '_', '-'; max 64 chars)"
    )
    rejects(() => validateEventType('.hidden'), "type='.hidden' is not a valid event type")
    rejects(() => validateEventType('a'.repeat(65)), 'is not a valid event type')
  })
})

describe('routing fields', () => {
  it('trims, and turns empty optional values into null', () => {
    expect(validateRouting('  project/muse  ', 'stream', true)).toBe('project/muse')
    expect(validateRouting('', 'topic', false)).toBeNull()
    expect(validateRouting(null, 'topic', false)).toBeNull()
    expect(validateRouting(undefined, 'to_agent', false)).toBeNull()
    expect(validateRouting('\x1fmac-claude\x1c', 'from_agent', true)).toBe('mac-claude') // Python strips \x1c-\x1f
  })
  it('rejects missing, blank, long and control-character values', () => {
    rejects(() => validateRouting('', 'stream', true), 'stream must be a non-empty string')
    rejects(() => validateRouting('   ', 'topic', false), 'topic must be a non-empty string')
    rejects(() => validateRouting(42, 'room', true), 'room must be a non-empty string')
    rejects(() => validateRouting('x'.repeat(257), 'room', true), 'room exceeds maximum length of 256 characters')
    expect(validateRouting('界'.repeat(256), 'room', true)).toHaveLength(256) // characters, not bytes
    rejects(() => validateRouting('mac\tclaude', 'from_agent', true), 'from_agent contains control characters')
    rejects(() => validateRouting('a\x7fb', 'to_agent', false), 'to_agent contains control characters')
  })
})

describe('status', () => {
  it('accepts the enum and null', () => {
    for (const s of ['open', 'claimed', 'ready', 'applied', 'blocked', 'failed', 'superseded']) expect(validateStatus(s)).toBe(s)
    expect(validateStatus('')).toBeNull()
    expect(validateStatus(null)).toBeNull()
  })
  it('rejects anything else listing the allowed values sorted', () => {
    rejects(() => validateStatus('done'), "status='done' is not one of: applied, blocked, claimed, failed, open, ready, superseded")
    rejects(() => validateStatus('Open'), "status='Open' is not one of")
  })
})

describe('body', () => {
  it('keeps text verbatim and allows empty', () => {
    expect(validateBody('  line\r\n中文 ')).toBe('  line\r\n中文 ')
    expect(validateBody(undefined)).toBe('')
    expect(validateBody('x'.repeat(256 * 1024))).toHaveLength(256 * 1024)
  })
  it('rejects NUL, non-strings and more than 256 KiB of UTF-8 (never truncates)', () => {
    rejects(() => validateBody('a\0b'), 'body contains null bytes')
    rejects(() => validateBody(12), 'body must be a string')
    rejects(() => validateBody('x'.repeat(256 * 1024 + 1)), 'body is 262145 bytes; maximum is 262144 bytes')
    rejects(() => validateBody('界'.repeat(90_000)), 'body is 270000 bytes; maximum is 262144 bytes')
  })
  it('replaces lone surrogates like MemPalace', () => {
    expect(validateBody('a\uD800b')).toBe('a\uFFFDb')
  })
})

describe('metadata', () => {
  it('returns canonical JSON text', () => {
    expect(validateMetadata(undefined)).toBe('{}')
    expect(validateMetadata({ z: 1, a: '中' })).toBe('{"a": "中", "z": 1}')
  })
  it('rejects non-objects, unserialisable values and more than 64 KiB', () => {
    rejects(() => validateMetadata([1]), 'metadata must be an object')
    rejects(() => validateMetadata('x'), 'metadata must be an object')
    rejects(() => validateMetadata(new Date()), 'metadata must be an object')
    rejects(() => validateMetadata({ x: NaN }), 'metadata is not JSON-serializable')
    rejects(() => validateMetadata({ x: 'y'.repeat(64 * 1024) }), 'metadata exceeds maximum size of 65536 bytes')
  })
})

describe('artifacts', () => {
  it('validates ids, kind and content', () => {
    expect(validateArtifactIds(['a', 'b', 'a'])).toEqual(['a', 'b'])
    rejects(() => validateArtifactIds(['a', '']), 'artifact_ids must be a list of artifact id strings')
    rejects(() => validateArtifactIds('art_x'), 'artifact_ids must be a list of artifact id strings')
    expect(validateArtifactKind('patch')).toBe('patch')
    rejects(() => validateArtifactKind('diff'), "kind='diff' is not one of: file, json, log, note, patch")
    rejects(() => validateArtifactContent(''), 'content must be a non-empty string')
    rejects(() => validateArtifactContent('a\0'), 'content contains null bytes')
    rejects(() => validateArtifactContent('x'.repeat(4 * 1024 * 1024 + 1)), 'content is 4194305 bytes; maximum is 4194304 bytes')
  })
  it('warns about patches exactly twice, never changing content', () => {
    expect(patchWarnings('patch', 'diff\n')).toEqual([])
    expect(patchWarnings('patch', 'diff')).toEqual([PATCH_WARNING_NO_TRAILING_NEWLINE])
    expect(patchWarnings('patch', 'a\r\nb')).toEqual([PATCH_WARNING_NO_TRAILING_NEWLINE, PATCH_WARNING_CRLF])
    expect(patchWarnings('log', 'no newline')).toEqual([])
    // Upstream's full sentences: logstream.py Logstream._patch_content_warnings (RFC 003 dogfood).
    expect(PATCH_WARNING_NO_TRAILING_NEWLINE).toBe(
      'patch content does not end with a trailing newline; git apply will reject the final hunk as corrupt — store the diff byte-exactly including its trailing newline'
    )
    expect(PATCH_WARNING_CRLF).toBe(
      'patch content contains carriage returns (CRLF line endings); git apply often rejects CRLF diffs — generate the diff with LF endings'
    )
  })
})

describe('tasks', () => {
  it('validates base commits with the upstream message and lowercases them', () => {
    expect(validateBaseCommit(' ABCDEF1 ')).toBe('abcdef1')
    const msg = 'task base commit must be a hexadecimal Git object id (at least 7 characters), not a branch or tag'
    rejects(() => validateBaseCommit('main'), msg)
    rejects(() => validateBaseCommit('v2.22.0'), msg)
    rejects(() => validateBaseCommit('abc123'), msg)
    rejects(() => validateBaseCommit('a'.repeat(65)), msg)
    rejects(() => validateBaseCommit(''), 'task base commit must not be empty')
  })
  it('slugs like upstream task_slug', () => {
    expect(taskSlug('Fix search echo ranking!')).toBe('fix_search_echo_ranking')
    expect(taskSlug('  --Hello__World--  ')).toBe('hello_world')
    expect(taskSlug('修复 MCP 超时')).toBe('mcp')
    expect(taskSlug('中文')).toBe('work')
    expect(taskSlug('', 'project')).toBe('project')
    expect(taskSlug('a'.repeat(39) + ' b c')).toBe('a'.repeat(39)) // cut at 40, trailing _ dropped
  })
})

describe('python-isms', () => {
  it('reprs strings like Python', () => {
    expect(pyRepr('x')).toBe("'x'")
    expect(pyRepr("it's")).toBe('"it\'s"')
    expect(pyRepr('a\nb\\')).toBe("'a\\nb\\\\'")
    expect(pyRepr(null)).toBe('None')
  })
  it('strips Python whitespace', () => {
    expect(pyStrip('\x1c\u3000 x \t')).toBe('x')
    expect(pyStrip('\uFEFFx')).toBe('\uFEFFx')
  })
})
