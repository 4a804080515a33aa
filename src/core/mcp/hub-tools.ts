/**
 * The hub tools of `muster mcp`, as MemPalace's newest MCP server defines them
 * (mempalace/mcp_server/tools_coord.py @ 9a2f8b77): upstream's result objects (`{"events",
 * "count"}`, `{"timed_out", "events", "count"}`, `{"success": true, "event"}`, `{"artifact"}`)
 * and its refusals as ordinary results (`{"error"}` for reads, `{"success": false, "error"}` for
 * writes), never a tool error. On list and wait `writer` filters by author and `from_agent` is the
 * caller's identity: it never narrows the result, and a `note` says so when it is given alone.
 * Every call goes through the hub service (local or remote hub alike). Arguments arrive parsed
 * exactly (metadata keeps ints past 2^53 and `1.0`, see `shared/py-json`); what an agent writes is
 * checked against the invocation protocol.
 */
import { PyFloat, pyToObject, type PyJson } from '../../shared/py-json'
import type { HubToolName } from '../../shared/contract/mcp-tools'
import type { HubSelection, HubService } from '../hub'
import { assertInvocationsAllowed } from '../invoke'
import { refuseApprovalEvents } from '../../shared/event-type'

/** Upstream's note when `from_agent` is given to list/wait without `writer`. */
export const FROM_AGENT_NOTE =
  'from_agent is your identity and does not filter event_list/event_wait. ' +
  'Filter by who wrote an event with writer=<agent>; for your inbox use to_agent=<you>.'

/** A tool's arguments, parsed exactly. */
export type HubToolArgs = Record<string, PyJson>

/** A hub tool: arguments in, upstream's result object out. */
export type HubTool = (args: HubToolArgs, signal: AbortSignal) => Promise<Record<string, unknown>>

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** Errors a tool answers as a result (validation, unknown ids); anything else is a crash. */
function isRefusal(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name
  return name === 'ApiError' || name === 'HubValidationError' || name === 'RemoteCallError'
}

/** Python's truthiness of a JSON value (`preview: "false"` is true upstream, as in Python). */
function truthy(v: PyJson | undefined): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0 || v === 0n) return false
  if (v instanceof PyFloat) return v.value !== 0
  if (Array.isArray(v)) return v.length > 0
  if (v instanceof Map) return v.size > 0
  return true
}

/**
 * The arguments as the hub service takes them: JSON null is "not given" (Python's `None`
 * default), objects become plain objects that keep exact numbers (`pyToObject`), integers that
 * arrived as bigint become numbers (limits and timeouts are clamped anyway).
 */
function plain(args: HubToolArgs, skip: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(args)) {
    if (v === null || skip.includes(k)) continue
    out[k] = typeof v === 'bigint' ? Number(v) : pyToObject(v)
  }
  return out
}

/** The hub tools bound to a hub service and the hub `muster mcp` was started for. */
export function hubTools(hubs: HubService, sel: HubSelection): Record<HubToolName, HubTool> {
  const write =
    (run: (a: Record<string, unknown>) => Promise<Record<string, unknown>>): HubTool =>
    async (args) => {
      try {
        return { success: true, ...(await run(plain(args))) }
      } catch (err) {
        if (!isRefusal(err)) throw err
        return { success: false, error: message(err) }
      }
    }
  const read =
    (run: (a: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>, skip: readonly string[] = []): HubTool =>
    async (args, signal) => {
      try {
        return await run(plain(args, skip), signal)
      } catch (err) {
        if (!isRefusal(err)) throw err
        return { error: message(err) }
      }
    }
  /** list/wait filters: `writer` is the author filter; `from_agent` (the caller) is dropped. */
  const filters = (a: Record<string, unknown>): Record<string, unknown> => {
    const { writer, from_agent: _caller, ...rest } = a
    return writer === undefined ? rest : { ...rest, from_agent: writer }
  }
  const note = (args: HubToolArgs): Record<string, unknown> =>
    truthy(args.from_agent) && !truthy(args.writer) ? { note: FROM_AGENT_NOTE } : {}
  const checked = (body: unknown): void => assertInvocationsAllowed(typeof body === 'string' ? body : '')

  return {
    mempalace_event_list: async (args, signal) => {
      const out = await read(
        async (a) => {
          const order = a.order ?? (a.since_event_id ? 'asc' : 'desc')
          const r = await hubs.list({ ...sel, ...filters(a), order: order as 'asc' | 'desc', preview: truthy(args.preview) })
          return { events: r.events, count: r.count }
        },
        ['preview']
      )(args, signal)
      return 'error' in out ? out : { ...out, ...note(args) }
    },
    mempalace_event_wait: async (args, signal) => {
      const out = await read(async (a, sig) => {
        const r = await hubs.wait({ ...sel, ...filters(a), signal: sig })
        return { timed_out: r.timed_out, events: r.events, count: r.events.length }
      })(args, signal)
      return 'error' in out ? out : { ...out, ...note(args) }
    },
    mempalace_event_append: write(async (a) => {
      refuseApprovalEvents(a.type)
      checked(a.body)
      return { event: (await hubs.append({ ...sel, ...a } as Parameters<HubService['append']>[0])).event }
    }),
    mempalace_event_ack: write(async (a) => {
      checked(a.body)
      return { event: (await hubs.ack({ ...sel, ...a } as Parameters<HubService['ack']>[0])).event }
    }),
    mempalace_task_create: write(async (a) => {
      checked(`${String(a.goal ?? '')}\n${String(a.done ?? '')}`)
      const r = await hubs.createTask({ ...sel, ...a } as Parameters<HubService['createTask']>[0])
      return { task: r.task, handoff: r.handoff }
    }),
    mempalace_artifact_put: write(async (a) => {
      const r = await hubs.putArtifact({ ...sel, ...a } as Parameters<HubService['putArtifact']>[0])
      return { artifact: r.artifact }
    }),
    mempalace_artifact_get: read(async (a) => ({
      artifact: await hubs.storedArtifact({ ...sel, id: a.artifact_id as string })
    })),
    mempalace_patch_submit: write(async (a) => {
      checked(a.body)
      const r = await hubs.submitPatch({ ...sel, ...a } as Parameters<HubService['submitPatch']>[0])
      return { artifact: r.artifact, event: r.event }
    })
  }
}
