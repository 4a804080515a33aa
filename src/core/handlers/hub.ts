/**
 * Handlers of the hub methods (MemPalace logstream): the hub registry, reads (list, wait, thread,
 * tasks, presence, inbox, overview) and writes as the operator (append, ack, task, announce).
 * While the service watches (`opts.watch`), registered hubs are tailed and pushed as `hub.events`
 * and `hub.inbox`.
 */
import { existsSync } from 'node:fs'
import { ApiError, type HubInfo, type hubMethods } from '../../shared/api'
import { assertCommitExists } from '../hub/commit-check'
import { HubPool, type ChosenHub } from '../hub/hub-pool'
import { HubRegistry } from '../hub/hub-registry'
import { HubWatcher } from '../hub/hub-watcher'
import { inboxOn, latestInboxOn, unreadOn } from '../hub/inbox'
import { overviewOn } from '../hub/overview'
import { listPresence } from '../hub/presence'
import { anchorRowid, countEvents, listOn, readEvent, type ListOptions } from '../hub/reader'
import { listTasksOn, patchesWaitingOn } from '../hub/tasks'
import { readThread } from '../hub/thread'
import { patchWarnings, validateBaseCommit } from '../hub/validate'
import { waitEvents } from '../hub/wait'
import { ackEvent, appendEvent, createTaskRequest, getArtifact, sha256Hex } from '../hub/writer'
import type { HandlersFor, ServiceContext } from '../service-context'

/** The hub handlers bound to a service context. */
export function hubHandlers(ctx: ServiceContext): HandlersFor<typeof hubMethods> {
  const registry = new HubRegistry(ctx.db)
  const pool = new HubPool(registry)
  const operator = (): string => ctx.settings.get().operatorId
  const inboxAfter = (palace: string): number => registry.cursor(palace, operator())?.last_seq ?? 0
  const watcher =
    (ctx.opts.watch ?? true)
      ? new HubWatcher({
          operator,
          inboxAfter,
          onEvents: (hub, events) => ctx.emit({ name: 'hub.events', payload: { hub: hub.name, palace: hub.palace, events } }),
          onInbox: (hub, unread, latest) => ctx.emit({ name: 'hub.inbox', payload: { hub: hub.name, palace: hub.palace, unread, latest } })
        })
      : null
  const resync = (): void => watcher?.sync(pool.known())
  resync()
  ctx.onClose(() => {
    watcher?.close()
    pool.close()
  })

  const ref = (h: ChosenHub): { hub: string; palace: string } => ({ hub: h.name, palace: h.palace })
  const info = (name: string, palace: string, addedAt: string | null, registered: boolean): HubInfo => {
    const file = pool.connection(palace).file
    return { name, palace, file, added_at: addedAt, exists: existsSync(file), registered }
  }
  const listOpts = (input: ListOptions & { hub?: string; palace?: string; count?: boolean }): ListOptions => {
    const { hub: _h, palace: _p, count: _c, ...rest } = input
    return rest
  }

  return {
    'hubs.list': () => {
      const hubs = registry.list().map((h) => info(h.name, h.palace, h.added_at, true))
      const def = pool.defaultPalace()
      const rec = registry.findByPalace(def.palace)
      return { hubs, default: { ...info(rec?.name ?? 'default', def.palace, rec?.added_at ?? null, !!rec), source: def.source } }
    },
    'hubs.add': ({ palace, name, create }) => {
      const chosen = pool.choose({ palace })
      const taken = name ? registry.find(name) : null
      if (taken && taken.palace !== chosen.palace) {
        throw new ApiError(`a hub named '${taken.name}' already exists (${taken.palace}); pass another name`, 'conflict')
      }
      if (!chosen.conn.exists()) {
        if (!create) throw new ApiError(`no hub at ${chosen.palace} (logstream.sqlite3 does not exist; pass create to make one)`, 'not_found')
        chosen.conn.write(() => undefined)
      }
      chosen.conn.read(() => undefined) // a corrupt file is refused before it is registered
      const { hub, added } = registry.add(chosen.palace, name)
      if (added) resync()
      return { ...info(hub.name, hub.palace, hub.added_at, true), added }
    },
    'hubs.remove': ({ name }) => {
      const hub = registry.remove(name)
      pool.drop(hub.palace)
      resync()
      return { removed: hub.name }
    },
    'hub.list': (input) => {
      const h = pool.choose(input)
      const page = h.conn.read((db, shape) => listOn(db, shape, listOpts(input)))
      const total = input.count ? countEvents(h.conn, listOpts(input)) : undefined
      return { ...ref(h), events: page.events, count: page.events.length, has_more: page.has_more, ...(total !== undefined ? { total } : {}) }
    },
    'hub.get': ({ id, ...sel }) => {
      const h = pool.choose(sel)
      const event = readEvent(h.conn, id)
      if (!event) throw new ApiError(`event '${id}' not found`, 'not_found')
      return { ...ref(h), event }
    },
    'hub.artifact': ({ id, content, ...sel }) => {
      const h = pool.choose(sel)
      const art = h.conn.read((db) => getArtifact(db, id))
      if (!art) throw new ApiError(`artifact '${id}' not found`, 'not_found')
      return {
        ...ref(h),
        id: art.id,
        kind: art.kind,
        sha256: art.sha256,
        size_bytes: art.size_bytes,
        created_by: art.created_by,
        created_at: art.created_at,
        metadata: art.metadata,
        sha256_ok: sha256Hex(art.content) === art.sha256.toLowerCase(),
        size_ok: Buffer.byteLength(art.content, 'utf8') === art.size_bytes,
        warnings: patchWarnings(art.kind, art.content),
        ...(content ? { content: art.content } : {})
      }
    },
    'hub.wait': async (input) => {
      const h = pool.choose(input)
      const { timeout_ms, ...rest } = input
      return { ...ref(h), ...(await waitEvents(h.conn, { ...listOpts(rest), timeout_ms })) }
    },
    'hub.thread': ({ correlation_id, stuck_after_ms, ...sel }) => {
      const h = pool.choose(sel)
      const { fold, events } = readThread(h.conn, correlation_id, { stuckAfterMs: stuck_after_ms })
      if (events.length === 0) throw new ApiError(`no events with correlation_id '${correlation_id}'`, 'not_found')
      return { ...ref(h), ...fold, events }
    },
    'hub.tasks': ({ stream, agent, limit, stuck_after_ms, ...sel }) => {
      const h = pool.choose(sel)
      return h.conn.read((db, shape) => {
        const list = listTasksOn(db, shape, { stream, agent, limit, stuckAfterMs: stuck_after_ms })
        return {
          ...ref(h), counts: list.counts, tasks: list.tasks, truncated: list.truncated,
          open: list.tasks.filter((t) => t.state === 'open'),
          claimed: list.tasks.filter((t) => t.state === 'claimed'),
          stuck: list.tasks.filter((t) => t.stuck),
          patches_waiting: patchesWaitingOn(db, shape)
        }
      })
    },
    'hub.presence': ({ agent, stale_after_ms, ...sel }) => {
      const h = pool.choose(sel)
      const agents = agent === undefined ? undefined : typeof agent === 'string' ? [agent] : agent
      return { ...ref(h), agents: listPresence(h.conn, { agents, staleAfterMs: stale_after_ms }) }
    },
    'hub.append': ({ hub, palace, ...e }) => {
      const h = pool.choose({ hub, palace })
      const event = h.conn.write((w) =>
        appendEvent(w.db, w.replicaId, {
          type: e.type, stream: e.stream, room: e.room, fromAgent: operator(), topic: e.topic, toAgent: e.to_agent,
          correlationId: e.correlation_id, branch: e.branch, baseCommit: e.base_commit, status: e.status, body: e.body,
          metadata: e.metadata, artifactIds: e.artifact_ids
        })
      )
      return { ...ref(h), event }
    },
    'hub.ack': ({ event_id, status, body, topic, ...sel }) => {
      const h = pool.choose(sel)
      const event = h.conn.write((w) => ackEvent(w.db, w.replicaId, { eventId: event_id, fromAgent: operator(), status, body, topic }))
      return { ...ref(h), event }
    },
    'hub.taskCreate': async ({ project, to_agent, goal, branch, base_commit, done, repo_project, ...sel }) => {
      const h = pool.choose(sel)
      const sha = (() => {
        try {
          return validateBaseCommit(base_commit)
        } catch (err) {
          throw new ApiError((err as Error).message, 'invalid_input')
        }
      })()
      const repo = repo_project ? ctx.registry.get(repo_project) : ctx.registry.list().find((p) => p.name.toLowerCase() === project.trim().toLowerCase())
      if (repo) await assertCommitExists(repo.path, sha, `project '${repo.name}'`)
      const { task, handoff } = h.conn.write((w) =>
        createTaskRequest(w.db, w.replicaId, { project, fromAgent: operator(), toAgent: to_agent, goal, branch, baseCommit: base_commit, done })
      )
      return { ...ref(h), task, handoff, verified_in: repo?.name ?? null }
    },
    'hub.announce': ({ body, stream, filters, cursor, ...sel }) => {
      const h = pool.choose(sel)
      const me = operator()
      const metadata: Record<string, unknown> = { filters: filters ?? { to_agent: [me] }, cursor: cursor ?? null, harness: 'muster' }
      const text = body ?? `${me} watching via Muster (to_agent=${me} or *)${cursor ? ` cursor ${cursor}` : ''}`
      const event = h.conn.write((w) =>
        appendEvent(w.db, w.replicaId, { type: 'status', stream: stream ?? 'presence', room: 'status', fromAgent: me, toAgent: '*', body: text, metadata })
      )
      return { ...ref(h), event }
    },
    'hub.inbox': ({ limit, ...sel }) => {
      const h = pool.choose(sel)
      const cursor = registry.cursor(h.palace, operator())
      const inbox = h.conn.read((db, shape) => inboxOn(db, shape, operator(), cursor?.last_seq ?? 0, limit ?? 50))
      return { ...ref(h), cursor, ...inbox }
    },
    'hub.markRead': ({ event_id, ...sel }) => {
      const h = pool.choose(sel)
      const me = operator()
      const target = h.conn.read((db, shape) => {
        if (event_id) return { seq: anchorRowid(db, event_id, 'since_event_id'), id: event_id }
        const latest = latestInboxOn(db, shape, me, 0)
        return latest ? { seq: latest.seq, id: latest.id } : null
      })
      const cursor = target ? registry.setCursor(h.palace, me, target.seq, target.id) : registry.cursor(h.palace, me)
      const unread = h.conn.read((db, shape) => unreadOn(db, shape, me, cursor?.last_seq ?? 0))
      watcher?.inboxRead(h.palace, unread)
      return { ...ref(h), cursor, unread }
    },
    'hub.overview': ({ stuck_after_ms, stale_after_ms, ...sel }) => {
      const me = operator()
      const targets = sel.hub || sel.palace ? [pool.choose(sel)] : pool.known().map((k) => pool.choose({ palace: k.palace }))
      const hubs = targets.map((h) => {
        try {
          const o = h.conn.read((db, shape) =>
            overviewOn(db, shape, { operator: me, inboxAfterSeq: inboxAfter(h.palace), stuckAfterMs: stuck_after_ms, staleAfterMs: stale_after_ms })
          )
          return { ...ref(h), ok: true, error: null, ...o }
        } catch (err) {
          return {
            ...ref(h), ok: false, error: (err as Error).message, agents: [], tasks: null, stuck: [], patches_waiting: [],
            approvals_waiting: 0, inbox_unread: 0
          }
        }
      })
      return { operator: me, hubs }
    }
  }
}
