/** The messages between the digest pool (`digest-pool.ts`) and its workers (`digest-worker.ts`). */
import type { RoleDigest } from './parse-role'

/** A batch of role files to read and digest. */
export interface DigestRequest {
  id: number
  items: { path: string; file: string }[]
}

/** The digests of a batch, in order; a file that could not be read gives its error code. */
export interface DigestReply {
  id: number
  results: ({ ok: true; digest: RoleDigest } | { ok: false; code: string; message: string })[]
}
