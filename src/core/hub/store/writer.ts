/**
 * Writing to a MemPalace hub (spec/hub-logstream.md sections 3-5): append an event in one
 * `BEGIN IMMEDIATE` transaction, store artifacts, ack events, create task requests, submit
 * patches. Append-only: nothing here UPDATEs or DELETEs an event (the `origin_seq = rowid` update
 * belongs to the insert's own transaction). Plus the envelope shape and a minimal reader.
 */
import { randomBytes } from 'node:crypto'
import type { HubEvent } from '../../../shared/contract/hub-types'
import { ACK_OF, EventType, Room, Status } from '../../../shared/contract/hub-vocabulary'
import type { Db } from '../../sqlite'
import type { AckInput, AppendInput, PatchSubmitInput, TaskCreateInput } from '../hub-port'
import { pyRepr } from '../../text'
import { putArtifact, type ArtifactRecord } from './artifacts'
import { formatCreatedAt, HLC_RE, hlcDriftBound, newId, nextHlc } from '../values/ids'
import {
  HubValidationError,
  pyStrip,
  requiredTaskText,
  taskSlug,
  validateArtifactIds,
  validateBaseCommit,
  validateBody,
  validateEventType,
  validateMetadata,
  validateRouting,
  validateStatus
} from '../values/validate'
import { readMetadata, stmt, validInstant } from './write-support'
import { exactRowid, SEQUENCE_CEILING, TOP_ROWID, topRowid } from './event-query'

export type { HubEvent }

/**
 * An append as the hub port takes it (`AppendInput`, the fields of section 4 as on the wire), plus
 * an internal instant (demo fleet, imports) used for the id stamp, `created_at` and the HLC's
 * physical part instead of now. The HLC still ends up strictly greater than any in the file.
 */
export type AppendWrite = AppendInput & { at?: Date }

/** An `events` row as `SELECT rowid, * FROM events` returns it (v4 columns). */
export type EventRow = Omit<HubEvent, 'seq' | 'artifact_ids' | 'metadata'> & { rowid: number; metadata_json: string }

/**
 * A text column as text: another writer may have stored a BLOB (or a number) where MemPalace writes
 * TEXT. A BLOB body is shown as binary (`[binary body: N bytes]`), never passed on as bytes that
 * break the JSON and the thread views.
 */
export function textColumn(v: unknown, what = 'body'): string {
  if (typeof v === 'string') return v
  if (v instanceof Uint8Array) return `[binary ${what}: ${v.byteLength} bytes]`
  return v === null || v === undefined ? '' : String(v)
}

/** Metadata JSON read from a row: a BLOB holding UTF-8 text is read as that text, other bytes as none. */
function metadataText(v: unknown): string | null {
  if (typeof v === 'string' || v === null) return v
  if (v instanceof Uint8Array) {
    const text = Buffer.from(v).toString('utf8')
    return Buffer.from(text, 'utf8').equals(Buffer.from(v)) ? text : null
  }
  return null
}

/** The envelope fields a source may lack (an older hub server, an older file): they read as null. */
type NullableField = 'origin_replica' | 'origin_seq' | 'hlc' | 'topic' | 'to_agent' | 'correlation_id' | 'branch' | 'base_commit' | 'status'

/** An envelope's fields as a source has them (a file's row, a server's JSON): the nullable ones may be missing. */
export type EnvelopeFields = Omit<HubEvent, NullableField | 'artifact_ids'> & {
  [K in NullableField]?: HubEvent[K] | null
} & { artifact_ids?: readonly string[] }

/**
 * The envelope in upstream key order, with only its own fields: null for each one the source lacks,
 * the artifact ids sorted (as a file's `ORDER BY artifact_id` gives them).
 */
export function toEnvelope(f: EnvelopeFields): HubEvent {
  return {
    id: f.id,
    seq: f.seq,
    origin_replica: f.origin_replica ?? null,
    origin_seq: f.origin_seq ?? null,
    hlc: f.hlc ?? null,
    type: f.type,
    stream: f.stream,
    room: f.room,
    topic: f.topic ?? null,
    from_agent: f.from_agent,
    to_agent: f.to_agent ?? null,
    correlation_id: f.correlation_id ?? null,
    branch: f.branch ?? null,
    base_commit: f.base_commit ?? null,
    status: f.status ?? null,
    artifact_ids: [...(f.artifact_ids ?? [])].sort(),
    body: f.body,
    created_at: f.created_at,
    metadata: f.metadata,
    ...(f.metadata_json !== undefined ? { metadata_json: f.metadata_json } : {})
  }
}

/** Builds the envelope of one row (`SELECT rowid, * FROM events`) with its artifact ids. */
export function rowToEvent(row: EventRow, artifactIds: string[]): HubEvent {
  const { rowid, body, metadata_json, ...columns } = row
  return toEnvelope({
    ...columns,
    seq: rowid,
    artifact_ids: artifactIds,
    body: textColumn(body),
    ...readMetadata(metadataText(metadata_json))
  })
}

function artifactIdsOf(db: Db, eventId: string): string[] {
  const rows = stmt(db, 'SELECT artifact_id FROM event_artifacts WHERE event_id = ? ORDER BY artifact_id').all(eventId)
  return (rows as { artifact_id: string }[]).map((r) => r.artifact_id)
}

/** One event by id, or null. */
export function getEvent(db: Db, id: string): HubEvent | null {
  const row = stmt(db, 'SELECT rowid, * FROM events WHERE id = ?').get(id) as EventRow | undefined
  return row ? rowToEvent(row, artifactIdsOf(db, row.id)) : null
}

/** Minimal reader: the newest or oldest `limit` events (default 50, at most 500) ordered by rowid. */
export function listEvents(db: Db, opts: { limit?: number; order?: 'asc' | 'desc' } = {}): HubEvent[] {
  const limit = Math.min(Math.max(1, Math.floor(opts.limit ?? 50)), 500)
  const order = opts.order === 'desc' ? 'DESC' : 'ASC'
  const rows = db.prepare(`SELECT rowid, * FROM events ORDER BY rowid ${order} LIMIT ?`).all(limit) as EventRow[]
  return rows.map((row) => rowToEvent(row, artifactIdsOf(db, row.id)))
}

/**
 * The stamp a new local HLC must exceed: the newest well-formed HLC in the file at most 60 s ahead
 * of `nowMs` (`HLC_MAX_FUTURE_DRIFT_MS`: a replica whose clock runs far ahead is not followed), or
 * this replica's own newest stamp when that is later (our own clock may have stepped back: our
 * stamps stay monotonic). Index-backed (`events_hlc_idx`, `events_origin_seq_idx`); null for an
 * empty or legacy file.
 */
function lastHlc(db: Db, replicaId: string, nowMs: number): string | null {
  const bound = hlcDriftBound(nowMs)
  const top = stmt(db, 'SELECT hlc FROM events WHERE hlc IS NOT NULL AND hlc < ? ORDER BY hlc DESC LIMIT 1').get(bound) as
    { hlc: string } | undefined
  let last = top?.hlc ?? null
  if (last !== null && !HLC_RE.test(last)) {
    // A foreign malformed stamp sorts on top: fall back to the newest well-formed one.
    const row = stmt(
      db,
      `SELECT max(hlc) AS hlc FROM events WHERE hlc < ? AND hlc GLOB '${'[0-9]'.repeat(13)}-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-?*'`
    ).get(bound) as { hlc: string | null }
    last = row.hlc
  }
  const own = stmt(db, 'SELECT hlc FROM events WHERE origin_replica = ? ORDER BY origin_seq DESC LIMIT 1').get(replicaId) as
    { hlc: string | null } | undefined
  if (own?.hlc && HLC_RE.test(own.hlc) && (last === null || own.hlc > last)) last = own.hlc
  return last
}

/**
 * Where a new event goes: null (SQLite numbers it, max + 1, as MemPalace's writers do) unless a row
 * sits at the top rowid (2^63 - 1). Then SQLite would pick a random rowid, below the readers'
 * cursors half the time, so the event goes right after the newest row in sequence (at or below
 * 2^53; see `SEQUENCE_CEILING`) instead: it stays after everything written before it, for Muster's
 * cursors and MemPalace's alike. The rowid is never above one the file already holds.
 */
export function inSequenceRowid(db: Db): bigint | null {
  if (BigInt(topRowid(db)) < TOP_ROWID) return null
  const low = exactRowid(db, 'SELECT max(rowid) FROM events WHERE rowid <= ?', SEQUENCE_CEILING)
  const next = low === null || BigInt(low) < 1n ? 1n : BigInt(low) + 1n
  return next <= SEQUENCE_CEILING ? next : null
}

/**
 * Appends one immutable event. Validates every field (section 4), then in one `BEGIN IMMEDIATE`
 * transaction: checks that every artifact id exists (else rolls back with an error naming it),
 * inserts the row with `origin_replica` and a fresh HLC, sets `origin_seq = rowid`, and links the
 * artifacts. Returns the stored envelope.
 */
export function appendEvent(db: Db, replicaId: string, input: AppendWrite): HubEvent {
  const { type, stream, room, topic, fromAgent, toAgent, correlationId, branch, baseCommit, status, body, metadataJson, artifactIds, at } =
    normalizeAppend(input)
  const id = newId('evt', at)
  const createdAt = formatCreatedAt(at)

  const write = db.transaction(() => {
    const exists = stmt(db, 'SELECT 1 FROM artifacts WHERE id = ?')
    for (const artifactId of artifactIds) {
      if (!exists.get(artifactId)) throw new HubValidationError(`artifact_ids references unknown artifact ${pyRepr(artifactId)}`)
    }
    const hlc = nextHlc(lastHlc(db, replicaId, at.getTime()), at.getTime(), replicaId)
    const place = inSequenceRowid(db)
    const info = stmt(
      db,
      `INSERT INTO events (rowid, id, type, stream, room, topic, from_agent, to_agent, correlation_id, branch,
         base_commit, status, body, created_at, metadata_json, origin_replica, hlc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    ).run(
      place,
      id,
      type,
      stream,
      room,
      topic,
      fromAgent,
      toAgent,
      correlationId,
      branch,
      baseCommit,
      status,
      body,
      createdAt,
      metadataJson,
      replicaId,
      hlc
    )
    const rowid = Number(info.lastInsertRowid)
    // by id: above 2^53 the rowid as a number is rounded and would match no row
    stmt(db, 'UPDATE events SET origin_seq = rowid WHERE id = ?').run(id)
    const link = stmt(db, 'INSERT INTO event_artifacts (event_id, artifact_id) VALUES (?, ?)')
    for (const artifactId of artifactIds) link.run(id, artifactId)
    return { rowid, hlc }
  })
  const { rowid, hlc } = write.immediate()
  // The stored row, without reading it back: same values, same shape as `getEvent`.
  const row: EventRow = {
    rowid,
    id,
    origin_replica: replicaId,
    origin_seq: rowid,
    hlc,
    type,
    stream,
    room,
    topic,
    from_agent: fromAgent,
    to_agent: toAgent,
    correlation_id: correlationId,
    branch,
    base_commit: baseCommit,
    status,
    body,
    created_at: createdAt,
    metadata_json: metadataJson
  }
  return rowToEvent(row, [...artifactIds].sort())
}

/** Every field rule of section 4, applied: the values `appendEvent` stores (artifact existence aside). */
function normalizeAppend(input: AppendWrite) {
  return {
    type: validateEventType(input.type),
    stream: validateRouting(input.stream, 'stream', true),
    room: validateRouting(input.room, 'room', true),
    topic: validateRouting(input.topic, 'topic', false),
    fromAgent: validateRouting(input.from_agent, 'from_agent', true),
    toAgent: validateRouting(input.to_agent, 'to_agent', false),
    correlationId: validateRouting(input.correlation_id, 'correlation_id', false),
    branch: validateRouting(input.branch, 'branch', false),
    baseCommit: validateRouting(input.base_commit, 'base_commit', false),
    status: validateStatus(input.status),
    body: validateBody(input.body),
    metadataJson: validateMetadata(input.metadata),
    artifactIds: validateArtifactIds(input.artifact_ids),
    at: validInstant(input.at)
  }
}

/** Checks an append's fields without a hub (so a refused write never creates or opens one). */
export function checkAppend(input: AppendWrite): void {
  normalizeAppend(input)
}

export {
  checkArtifact,
  getArtifact,
  putArtifact,
  sha256Hex,
  type ArtifactRecord,
  type ArtifactWrite,
  type StoredArtifact
} from './artifacts'

/** An ack as the hub port takes it (`AckInput`), plus an internal backdate (demo fleet). */
export type AckWrite = AckInput & { at?: Date }

/**
 * Appends an `event.ack` for an existing event (the target is never changed): stream/room copied
 * from the target, topic given or the target's, `to_agent` = the target's `from_agent`,
 * `correlation_id` = the target's or its id, metadata `{"ack_of": <id>}`, status as given.
 */
export function ackEvent(db: Db, replicaId: string, input: AckWrite): HubEvent {
  const eventId = validateRouting(input.event_id, 'event_id', true)
  const target = stmt(db, 'SELECT rowid, * FROM events WHERE id = ?').get(eventId) as EventRow | undefined
  if (!target) throw new HubValidationError(`event ${pyRepr(eventId)} not found`)
  return appendEvent(db, replicaId, {
    type: EventType.ack,
    stream: target.stream,
    room: target.room,
    topic: input.topic !== undefined && input.topic !== null ? input.topic : (target.topic ?? null),
    from_agent: input.from_agent,
    to_agent: target.from_agent,
    correlation_id: target.correlation_id || target.id,
    status: input.status ?? null,
    body: input.body ?? '',
    metadata: { [ACK_OF]: eventId },
    ...(input.at ? { at: input.at } : {})
  })
}

/**
 * A task request as the hub port takes it (`TaskCreateInput`, upstream `create_task`), plus
 * internal fields: `at` backdates the request (demo fleet), `suffix` is the 8-hex correlation
 * suffix (tests; random by default).
 */
export type TaskWrite = TaskCreateInput & { at?: Date; suffix?: string }

/** The task body (exact upstream text). */
export function taskBody(goal: string, done: string): string {
  return (
    `Goal:\n${goal}\n\nDefinition of done:\n${done}\n\nDelivery:\n` +
    'Close the loop through MemPalace: claim the request, then submit a patch ' +
    'with mempalace_patch_submit or reply with blocked/failed evidence.'
  )
}

/** The one-line wake-up prompt for a stored task (upstream `task_handoff`). */
export function taskHandoff(correlationId: string, agent: string): string {
  return `Open MemPalace task ${correlationId} as ${agent}. Claim it, follow its exact definition of done, and deliver through the logstream.`
}

/**
 * Creates a canonical `task.request`: validates the fields (base commit must be 7-64 hex, stored
 * lowercased), `correlation_id = task_<slug(goal)>_<8 hex>`, `stream = project/<slug(project)>`,
 * `room = delegation`, `status = open`, the exact upstream body. Returns the event and handoff line.
 */
export function createTaskRequest(db: Db, replicaId: string, input: TaskWrite): { task: HubEvent; handoff: string } {
  const { project, fromAgent, toAgent, branch, baseCommit } = normalizeTask(input)
  const suffix = input.suffix ?? randomBytes(4).toString('hex')
  if (!/^[0-9a-f]{8}$/.test(suffix)) throw new HubValidationError('task suffix must be 8 lowercase hex digits')
  const correlationId = `task_${taskSlug(input.goal)}_${suffix}`
  const task = appendEvent(db, replicaId, {
    type: EventType.taskRequest,
    stream: `project/${taskSlug(project, 'project')}`,
    room: Room.delegation,
    from_agent: fromAgent,
    to_agent: toAgent,
    correlation_id: correlationId,
    branch,
    base_commit: baseCommit,
    status: Status.open,
    body: taskBody(input.goal, input.done),
    ...(input.at ? { at: input.at } : {})
  })
  return { task, handoff: taskHandoff(correlationId, toAgent) }
}

function normalizeTask(input: TaskWrite) {
  const out = {
    project: requiredTaskText(input.project, 'project'),
    fromAgent: requiredTaskText(input.from_agent, 'requesting agent'),
    toAgent: requiredTaskText(input.to_agent, 'destination agent'),
    branch: requiredTaskText(input.branch, 'branch'),
    baseCommit: validateBaseCommit(input.base_commit)
  }
  if (typeof input.goal !== 'string' || !pyStrip(input.goal)) throw new HubValidationError('task goal must not be empty')
  if (typeof input.done !== 'string' || !pyStrip(input.done)) {
    throw new HubValidationError('task definition of done must not be empty')
  }
  return out
}

/** Checks a task request's fields without a hub. */
export function checkTask(input: TaskWrite): void {
  normalizeTask(input)
}

/** A patch as the hub port takes it (`PatchSubmitInput`), plus an internal backdate (demo fleet). */
export type PatchWrite = PatchSubmitInput & { at?: Date }

/**
 * Upstream `submit_patch`: stores a `kind=patch` artifact (metadata shared with the event), then
 * appends `type=patch.ready`, `status=ready` referencing it. Returns both, with the warnings.
 */
export function submitPatch(db: Db, replicaId: string, input: PatchWrite): { artifact: ArtifactRecord; event: HubEvent } {
  const { content, room, ...rest } = input
  const artifact = putArtifact(db, replicaId, {
    kind: 'patch',
    content,
    created_by: input.from_agent,
    metadata: input.metadata ?? null,
    ...(input.at ? { at: input.at } : {})
  })
  const event = appendEvent(db, replicaId, {
    ...rest,
    type: EventType.patchReady,
    room: room ?? Room.patches,
    status: Status.ready,
    artifact_ids: [artifact.id]
  })
  return { artifact, event }
}
