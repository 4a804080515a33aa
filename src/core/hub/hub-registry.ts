/**
 * Hubs Muster knows about (state DB table `hubs`, migrations 3-4) and the operator's inbox cursor
 * per hub (`inbox_cursors`, keyed by the hub's location). Hubs are addressed by a registered name,
 * or by palace path. A record is local (a palace folder) or remote (a server URL and the file in
 * Muster's home holding its token; the token itself never enters the DB).
 */
import { basename, resolve } from 'node:path'
import { ApiError } from '../../shared/api-error'
import type { InboxCursor } from '../../shared/api'
import type { Db } from '../sqlite'
import { formatCreatedAt } from './values/ids'

/** A registered hub. */
export interface HubRecord {
  name: string
  kind: 'local' | 'remote'
  /** Local: the palace folder (absolute). */
  palace: string | null
  /** Remote: the hub server's base URL. */
  url: string | null
  /** Remote: the token file, relative to Muster's home (mode 0600). */
  token_file: string | null
  added_at: string
}

/** Where a record's hub lives: its palace folder, or its URL. */
export function locationOf(hub: HubRecord): string {
  return hub.palace ?? hub.url!
}

const COLUMNS = 'name, kind, palace, url, token_file, added_at'

export type { InboxCursor }

/** Hub names: like project names. */
export const HUB_NAME_RE = /^[A-Za-z0-9._-]{1,64}$/

/** A default name for a palace folder: its base name, or `hub`. */
export function defaultHubName(palace: string): string {
  const base = basename(resolve(palace))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64)
  return base || 'hub'
}

/** The registered hubs, as far as choosing one reads them (`chooseHub` in hub-choice.ts). */
export interface RegisteredHubs {
  /** Every registered hub, in registration order. */
  inOrder(): HubRecord[]
  find(name: string): HubRecord | null
  findByUrl(url: string): HubRecord | null
  findByPalace(palace: string): HubRecord | null
}

/** The hubs table and inbox cursors. */
export class HubRegistry implements RegisteredHubs {
  constructor(private readonly db: Db) {}

  /** Every registered hub, by name. */
  list(): HubRecord[] {
    return this.db.prepare(`SELECT ${COLUMNS} FROM hubs ORDER BY name`).all() as HubRecord[]
  }

  /** Every registered hub, in registration order (the first is the default hub: see hub-choice.ts). */
  inOrder(): HubRecord[] {
    return this.db.prepare(`SELECT ${COLUMNS} FROM hubs ORDER BY added_at, rowid`).all() as HubRecord[]
  }

  /** A hub by name (case-insensitive) or null. */
  find(name: string): HubRecord | null {
    return (this.db.prepare(`SELECT ${COLUMNS} FROM hubs WHERE name = ?`).get(name) as HubRecord | undefined) ?? null
  }

  /** A hub by its palace path, or null. */
  findByPalace(palace: string): HubRecord | null {
    return (this.db.prepare(`SELECT ${COLUMNS} FROM hubs WHERE palace = ?`).get(resolve(palace)) as HubRecord | undefined) ?? null
  }

  /** A hub by name, or a not_found error. */
  get(name: string): HubRecord {
    const hub = this.find(name)
    if (!hub) throw new ApiError(`unknown hub '${name}' (see: muster hubs list)`, 'not_found')
    return hub
  }

  /**
   * Registers a palace. Idempotent: the same palace again returns the existing record (whatever
   * name was asked). A name taken by another palace is a conflict.
   */
  add(palace: string, name?: string): { hub: HubRecord; added: boolean } {
    const abs = resolve(palace)
    const existing = this.findByPalace(abs)
    if (existing) return { hub: existing, added: false }
    const chosen = name?.trim() || defaultHubName(abs)
    if (!HUB_NAME_RE.test(chosen)) {
      throw new ApiError(`invalid hub name '${chosen}': use letters, digits, '.', '_' or '-' (max 64)`, 'invalid_input')
    }
    const taken = this.find(chosen)
    if (taken) throw new ApiError(`a hub named '${chosen}' already exists (${locationOf(taken)}); pass another name`, 'conflict')
    const hub: HubRecord = { name: chosen, kind: 'local', palace: abs, url: null, token_file: null, added_at: new Date().toISOString() }
    this.db.prepare("INSERT INTO hubs (name, kind, palace, added_at) VALUES (?, 'local', ?, ?)").run(hub.name, hub.palace, hub.added_at)
    return { hub, added: true }
  }

  /** A remote hub by its (normalised) server URL, or null. */
  findByUrl(url: string): HubRecord | null {
    return (this.db.prepare(`SELECT ${COLUMNS} FROM hubs WHERE url = ?`).get(url) as HubRecord | undefined) ?? null
  }

  /**
   * Registers a hub server by URL with its token file (relative to Muster's home, or null for a
   * token-less server). Idempotent like `add`: the same URL again returns the existing record,
   * with its token file updated when one is given.
   */
  addRemote(url: string, name: string, tokenFile: string | null): { hub: HubRecord; added: boolean } {
    const existing = this.findByUrl(url)
    if (existing) {
      if (tokenFile && tokenFile !== existing.token_file) {
        this.db.prepare('UPDATE hubs SET token_file = ? WHERE name = ?').run(tokenFile, existing.name)
        return { hub: { ...existing, token_file: tokenFile }, added: false }
      }
      return { hub: existing, added: false }
    }
    if (!HUB_NAME_RE.test(name))
      throw new ApiError(`invalid hub name '${name}': use letters, digits, '.', '_' or '-' (max 64)`, 'invalid_input')
    const taken = this.find(name)
    if (taken) throw new ApiError(`a hub named '${name}' already exists (${locationOf(taken)}); pass another name`, 'conflict')
    const hub: HubRecord = { name, kind: 'remote', palace: null, url, token_file: tokenFile, added_at: new Date().toISOString() }
    this.db
      .prepare("INSERT INTO hubs (name, kind, url, token_file, added_at) VALUES (?, 'remote', ?, ?, ?)")
      .run(name, url, tokenFile, hub.added_at)
    return { hub, added: true }
  }

  /** Unregisters a hub (its file is not touched) and drops its inbox cursors. */
  remove(name: string): HubRecord {
    const hub = this.get(name)
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM hubs WHERE name = ?').run(hub.name)
      this.db.prepare('DELETE FROM inbox_cursors WHERE hub = ?').run(locationOf(hub))
    })()
    return hub
  }

  /** The operator's inbox cursor in a hub (keyed by its location: palace path or URL), or null. */
  cursor(location: string, agent: string): InboxCursor | null {
    const row = this.db
      .prepare('SELECT last_seq, last_event_id, updated_at FROM inbox_cursors WHERE hub = ? AND agent = ?')
      .get(location, agent) as InboxCursor | undefined
    return row ?? null
  }

  /** Moves the inbox cursor forward (never backward); returns the stored cursor. */
  setCursor(location: string, agent: string, lastSeq: number, lastEventId: string | null): InboxCursor {
    const now = formatCreatedAt()
    this.db
      .prepare(
        `INSERT INTO inbox_cursors (hub, agent, last_seq, last_event_id, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(hub, agent) DO UPDATE SET last_seq = excluded.last_seq, last_event_id = excluded.last_event_id,
           updated_at = excluded.updated_at WHERE excluded.last_seq > inbox_cursors.last_seq`
      )
      .run(location, agent, lastSeq, lastEventId, now)
    return this.cursor(location, agent)!
  }
}
