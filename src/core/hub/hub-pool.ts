/**
 * Open hub connections of a service, keyed by palace, and the choice of hub for a call: a
 * registered name, a palace path, or MemPalace's own resolution (env, config, default).
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { HubConnection, type HubConnectionOptions } from './hub-connection'
import type { HubRegistry } from './hub-registry'
import { resolvePalace, type PalaceEnv, type PalaceSource } from './locate'

/** Which hub a call addresses. */
export interface HubSelection {
  hub?: string
  palace?: string
}

/** A chosen hub: how it is shown (registered name, else the palace path) and its connection. */
export interface ChosenHub {
  name: string
  palace: string
  conn: HubConnection
}

/** Connections per palace, created on first use, closed together. */
export class HubPool {
  private readonly conns = new Map<string, HubConnection>()

  constructor(
    private readonly registry: HubRegistry,
    private readonly env: PalaceEnv = process.env,
    private readonly opts: HubConnectionOptions = {}
  ) {}

  /** MemPalace's default palace for this process. */
  defaultPalace(): { palace: string; source: PalaceSource } {
    const r = resolvePalace(null, this.env)
    return { palace: r.palace, source: r.source }
  }

  /** The connection of a palace (shared by every call). */
  connection(palace: string): HubConnection {
    const abs = resolve(palace)
    let conn = this.conns.get(abs)
    if (!conn) this.conns.set(abs, (conn = new HubConnection(abs, this.opts)))
    return conn
  }

  /** Resolves a selection: `hub` name (must be registered), else `palace`, else the default. */
  choose(sel: HubSelection): ChosenHub {
    if (sel.hub) {
      const rec = this.registry.get(sel.hub)
      return { name: rec.name, palace: rec.palace, conn: this.connection(rec.palace) }
    }
    const palace = sel.palace ? resolvePalace(sel.palace, this.env).palace : this.defaultPalace().palace
    const rec = this.registry.findByPalace(palace)
    return { name: rec?.name ?? palace, palace, conn: this.connection(palace) }
  }

  /** Every registered hub, plus the default palace when its hub file exists and is not registered. */
  known(): { name: string; palace: string }[] {
    const hubs = this.registry.list().map((h) => ({ name: h.name, palace: h.palace }))
    const def = this.defaultPalace().palace
    if (!hubs.some((h) => h.palace === def) && existsSync(this.connection(def).file)) hubs.push({ name: def, palace: def })
    return hubs
  }

  /** Closes (and forgets) one palace's connection, e.g. after `hubs.remove`. */
  drop(palace: string): void {
    const abs = resolve(palace)
    this.conns.get(abs)?.close()
    this.conns.delete(abs)
  }

  /** Closes every connection. */
  close(): void {
    for (const c of this.conns.values()) c.close()
    this.conns.clear()
  }
}
