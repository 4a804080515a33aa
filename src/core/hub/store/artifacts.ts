/**
 * Artifacts (spec/hub-logstream.md section 5): exact UTF-8 content with its sha256 and byte size,
 * stored in one `BEGIN IMMEDIATE` transaction; patch warnings are advisory and never change the
 * content.
 */
import type { Db } from '../../sqlite'
import type { ArtifactPutInput, ArtifactRecord, StoredArtifact } from '../hub-port'
import { formatCreatedAt, newId } from '../values/ids'
import { sha256Hex } from '../values/integrity'
import { patchWarnings, validateArtifactContent, validateArtifactKind, validateMetadata, validateRouting } from '../values/validate'
import { readMetadata, stmt, validInstant } from './write-support'

export type { ArtifactRecord, StoredArtifact }

/** An artifact as the hub port takes it (`ArtifactPutInput`), plus an internal backdate of the id stamp and `created_at` (demo fleet). */
export type ArtifactWrite = ArtifactPutInput & { at?: Date }

export { sha256Hex }

/**
 * Stores exact artifact content (UTF-8 text, non-empty, no NUL, at most 4 MiB) with its sha256
 * and byte size. For `kind=patch`, returns the two upstream advisory warnings when they apply
 * (no trailing newline; carriage returns); the content is stored unchanged either way.
 */
export function putArtifact(db: Db, replicaId: string, input: ArtifactWrite): ArtifactRecord {
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

function normalizeArtifact(input: ArtifactWrite) {
  return {
    kind: validateArtifactKind(input.kind),
    createdBy: validateRouting(input.created_by, 'created_by', true),
    content: validateArtifactContent(input.content),
    metadataJson: validateMetadata(input.metadata),
    at: validInstant(input.at)
  }
}

/** Checks an artifact's fields without a hub. */
export function checkArtifact(input: ArtifactWrite): void {
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
