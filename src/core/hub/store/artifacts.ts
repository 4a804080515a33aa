/**
 * Artifacts (spec/hub-logstream.md section 5): exact UTF-8 content with its sha256 and byte size,
 * stored in one `BEGIN IMMEDIATE` transaction; patch warnings are advisory and never change the
 * content.
 */
import type { Db } from '../../sqlite'
import type { ArtifactRecord, StoredArtifact } from '../hub-port'
import { formatCreatedAt, newId } from '../values/ids'
import { sha256Hex } from '../values/integrity'
import {
  patchWarnings,
  validateArtifactContent,
  validateArtifactKind,
  validateMetadata,
  validateRouting,
  type ArtifactKind
} from '../values/validate'
import { readMetadata, stmt, validInstant } from './write-support'

export type { ArtifactRecord, StoredArtifact }

/** Input of `putArtifact`. */
export interface PutArtifactInput {
  kind: ArtifactKind | string
  content: string
  createdBy: string
  metadata?: Record<string, unknown> | null
  /** Internal: backdates the id stamp and `created_at` (demo fleet). */
  at?: Date
}

export { sha256Hex }

/**
 * Stores exact artifact content (UTF-8 text, non-empty, no NUL, at most 4 MiB) with its sha256
 * and byte size. For `kind=patch`, returns the two upstream advisory warnings when they apply
 * (no trailing newline; carriage returns); the content is stored unchanged either way.
 */
export function putArtifact(db: Db, replicaId: string, input: PutArtifactInput): ArtifactRecord {
  const { kind, createdBy, content, metadataJson, at } = normalizeArtifact(input)
  const record: ArtifactRecord = {
    id: newId('art', at),
    kind,
    sha256: sha256Hex(content),
    size_bytes: Buffer.byteLength(content, 'utf8'),
    created_by: createdBy,
    created_at: formatCreatedAt(at),
    origin_replica: replicaId
  }
  db.transaction(() => {
    stmt(
      db,
      `INSERT INTO artifacts (id, kind, sha256, size_bytes, content, created_by, created_at, metadata_json, origin_replica)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
    ).run(record.id, kind, record.sha256, record.size_bytes, content, createdBy, record.created_at, metadataJson, replicaId)
  }).immediate()
  const warnings = patchWarnings(kind, content)
  if (warnings.length) record.warnings = warnings
  return record
}

function normalizeArtifact(input: PutArtifactInput) {
  return {
    kind: validateArtifactKind(input.kind),
    createdBy: validateRouting(input.createdBy, 'created_by', true),
    content: validateArtifactContent(input.content),
    metadataJson: validateMetadata(input.metadata),
    at: validInstant(input.at)
  }
}

/** Checks an artifact's fields without a hub. */
export function checkArtifact(input: PutArtifactInput): void {
  normalizeArtifact(input)
}

/** One artifact with its exact content, or null. */
export function getArtifact(db: Db, id: string): StoredArtifact | null {
  const row = db.prepare('SELECT * FROM artifacts WHERE id = ?').get(id) as
    (Omit<StoredArtifact, 'metadata'> & { metadata_json: string }) | undefined
  if (!row) return null
  const { metadata_json, ...rest } = row
  return { ...rest, origin_replica: rest.origin_replica ?? null, ...readMetadata(metadata_json) }
}
