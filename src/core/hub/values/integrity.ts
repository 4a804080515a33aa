/**
 * Artifact integrity, once: an artifact is still what was stored when the SHA-256 and the UTF-8
 * byte size of its content are the ones recorded with it. The hub's `artifact.get`, the CLI's
 * `artifact get` and patch verification all ask this.
 */
import { createHash } from 'node:crypto'

/** Lowercase hex SHA-256 of the UTF-8 bytes of `content` (or of the bytes given). */
export function sha256Hex(content: string | Uint8Array): string {
  return typeof content === 'string'
    ? createHash('sha256').update(content, 'utf8').digest('hex')
    : createHash('sha256').update(content).digest('hex')
}

/** What an artifact's content is now against what was recorded when it was stored. */
export interface ArtifactIntegrity {
  /** SHA-256 of the content now. */
  computed: string
  /** UTF-8 byte size of the content now. */
  bytes: number
  sha256Ok: boolean
  sizeOk: boolean
}

/** Checks `a.content` against its recorded `sha256` (any case) and `size_bytes`. */
export function artifactIntegrity(a: { content: string; sha256: string; size_bytes: number }): ArtifactIntegrity {
  const computed = sha256Hex(a.content)
  const bytes = Buffer.byteLength(a.content, 'utf8')
  return { computed, bytes, sha256Ok: computed === a.sha256.toLowerCase(), sizeOk: bytes === a.size_bytes }
}
