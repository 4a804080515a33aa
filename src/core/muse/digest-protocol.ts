/** The messages between the digest pool (`digest-pool.ts`) and its workers (`digest-worker.ts`). */
import type { RoleDigest } from './parse-role'

/** A batch of role files to read and digest; `stat`: report each file's stamp fields, taken on its open descriptor before reading. */
export interface DigestRequest {
  id: number
  items: { path: string; file: string }[]
  stat?: boolean
}

/** What a worker's `fstat` says of a file it read (the fields of a parse-cache stamp and of the views' facts). */
export interface DigestStat {
  dev: number
  ino: number
  size: number
  mtimeMs: number
  ctimeMs: number
}

/** The digests of a batch, in order; a file that could not be read gives its error code. */
export interface DigestReply {
  id: number
  results: ({ ok: true; digest: RoleDigest; stat?: DigestStat } | { ok: false; code: string; message: string })[]
}
