/**
 * Sha256 values a sender quoted about its patch, in the event's metadata or body. In metadata,
 * any 64-hex value under a key naming a digest (`sha256`, `patch_sha256`, `artifact.sha256`,
 * `checksum`, `digest`). In the body, any 64-hex word on a line that names a digest; git commit
 * ids elsewhere in the body (40 hex, or 64 in a SHA-256 repository without such a label) are not
 * claims about the artifact.
 */
import type { QuotedSha } from '../../shared/api'

const SHA256_RE = /^[0-9a-fA-F]{64}$/
const SHA256_WORD_RE = /(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g
const DIGEST_KEY_RE = /sha-?256|checksum|digest/i
const DIGEST_LINE_RE = /sha-?256|checksum|digest/i

/** One quoted value before it is compared. */
export interface ShaClaim {
  where: 'body' | 'metadata'
  at: string
  sha256: string
}

/** Every sha256 claim in metadata (digest-named keys, nested objects and arrays) and body. */
export function findShaClaims(body: string, metadata: Record<string, unknown>): ShaClaim[] {
  const claims: ShaClaim[] = []
  const walk = (value: unknown, path: string, named: boolean): void => {
    if (typeof value === 'string') {
      const v = value.trim().replace(/^sha-?256[:=]\s*/i, '')
      if (named && SHA256_RE.test(v)) claims.push({ where: 'metadata', at: path, sha256: v.toLowerCase() })
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}[${i}]`, named))
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        walk(v, path ? `${path}.${k}` : k, named || DIGEST_KEY_RE.test(k))
    }
  }
  walk(metadata, '', false)
  body.split('\n').forEach((line, i) => {
    if (!DIGEST_LINE_RE.test(line)) return
    for (const m of line.matchAll(SHA256_WORD_RE)) claims.push({ where: 'body', at: `line ${i + 1}`, sha256: m[0].toLowerCase() })
  })
  return claims
}

/**
 * Compares claims with the artifact's computed sha256. A claim equal to the stored sha of another
 * artifact attached to the same event is about that artifact and is left out.
 */
export function compareClaims(claims: ShaClaim[], computed: string | null, others: readonly string[]): QuotedSha[] {
  const elsewhere = new Set(others.map((s) => s.toLowerCase()))
  return claims.filter((c) => c.sha256 === computed || !elsewhere.has(c.sha256)).map((c) => ({ ...c, ok: c.sha256 === computed }))
}
