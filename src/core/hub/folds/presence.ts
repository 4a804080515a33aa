/**
 * Presence: "who is home" (spec section 6). The latest `type=status` event per agent, with the
 * filters and cursor it announced (from metadata, else found in the body) and its age.
 */
import type { PresenceEntry } from '../../../shared/contract/hub-types'
import { EventType } from '../../../shared/contract/hub-vocabulary'
import type { Db } from '../../sqlite'
import type { HubConnection, HubShape } from '../store/hub-connection'
import { EVENT_ID_RE } from '../values/ids'
import { previewEvent, toEvents } from '../store/reader'
import type { EventRow } from '../store/writer'
import { selectList } from '../store/event-query'

/** Announcements older than this are shown as stale (agents announce once per session). */
export const DEFAULT_STALE_AFTER_MS = 24 * 60 * 60 * 1000

export type { PresenceEntry }

/** Options of `listPresence`. */
export interface PresenceOptions {
  agents?: readonly string[]
  now?: number
  staleAfterMs?: number
}

const ID_IN_TEXT = /evt_\d{8}T\d{6}_[0-9a-f]{12}/g

function announcedCursor(metadata: Record<string, unknown>, body: string): string | null {
  for (const key of ['cursor', 'since_event_id', 'last_event_id']) {
    const v = metadata[key]
    if (typeof v === 'string' && EVENT_ID_RE.test(v)) return v
  }
  const found = body.match(ID_IN_TEXT)
  return found ? found[found.length - 1]! : null
}

/** Up to this many status events, presence is an exact GROUP BY; past it, a newest-first scan. */
const EXACT_LIMIT = 20_000
/** The newest-first scan stops after a window this size brings no new agent. */
const WINDOW = 2_000

/**
 * The rowid of each agent's newest status event. Exact on ordinary hubs; on hubs with more than
 * 20,000 status events it walks them newest first (by created_at) and stops after 2,000 in a row
 * bring no new agent (an agent silent for that long is not "home" anyway).
 */
function latestStatusRowids(db: Db, shape: HubShape): bigint[] {
  const indexed = shape.indexes.has('events_type_idx') ? 'INDEXED BY events_type_idx' : ''
  const n = (
    db
      .prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM events ${indexed} WHERE type = ? LIMIT ?)`)
      .get(EventType.status, EXACT_LIMIT + 1) as { n: number }
  ).n
  if (n <= EXACT_LIMIT) {
    // exact (bigint): a rowid above 2^53 read as a number is rounded and would name no row
    return db
      .prepare(`SELECT max(rowid) AS r FROM events ${indexed} WHERE type = ? GROUP BY from_agent`)
      .pluck()
      .safeIntegers(true)
      .all(EventType.status) as bigint[]
  }
  // Index order (type, created_at): newest first without a sort; the scan stops early.
  const latest = new Map<string, bigint>()
  let sinceNew = 0
  const rows = db
    .prepare(`SELECT rowid AS r, from_agent AS a FROM events ${indexed} WHERE type = ? ORDER BY created_at DESC`)
    .safeIntegers(true)
    .iterate(EventType.status) as IterableIterator<{ r: bigint; a: string }>
  for (const row of rows) {
    const known = latest.get(row.a)
    if (known === undefined) sinceNew = 0
    else sinceNew++
    if (known === undefined || row.r > known) latest.set(row.a, row.r)
    if (sinceNew >= WINDOW) break
  }
  return [...latest.values()]
}

/** The latest status event per agent, newest first. */
export function presenceOn(db: Db, shape: HubShape, o: PresenceOptions = {}): PresenceEntry[] {
  if (!shape.hasEvents) return []
  const ids = latestStatusRowids(db, shape)
  if (ids.length === 0) return []
  const rows: EventRow[] = []
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500)
    rows.push(
      ...(db
        .prepare(`SELECT ${selectList(shape)} FROM events WHERE rowid IN (${chunk.map(() => '?').join(', ')})`)
        .all(...chunk) as EventRow[])
    )
  }
  const now = o.now ?? Date.now()
  const stale = o.staleAfterMs ?? DEFAULT_STALE_AFTER_MS
  return toEvents(db, shape, rows)
    .filter((e) => !o.agents?.length || o.agents.includes(e.from_agent))
    .sort((a, b) => b.seq - a.seq)
    .map((e) => {
      const age = Math.max(0, now - Date.parse(e.created_at))
      const filters = e.metadata.filters ?? e.metadata.filter ?? null
      return {
        agent: e.from_agent,
        at: e.created_at,
        age_ms: age,
        stale: age > stale,
        filters,
        cursor: announcedCursor(e.metadata, e.body),
        event: previewEvent(e)
      }
    })
}

/** `presenceOn` through a connection. */
export function listPresence(conn: HubConnection, o: PresenceOptions = {}): PresenceEntry[] {
  return conn.read((db, shape) => presenceOn(db, shape, o))
}
