/**
 * The hub tools of `muster mcp`, shaped like MemPalace's MCP tools (`tool_event_list` & co.):
 * upstream's argument names, upstream's result objects (`{"events", "count"}`, `{"success",
 * "event"}`, `{"success": false, "error"}`), every call through the hub service, writes as the
 * calling agent (`from_agent`). What an agent writes is checked against the invocation protocol.
 */
import type { z } from 'zod'
import type { HUB_MCP_TOOLS } from '../../shared/contract/mcp-tools'
import type { HubSelection, HubService } from '../hub'
import { assertInvocationsAllowed } from '../invoke'

type Args<K extends keyof typeof HUB_MCP_TOOLS> = z.infer<(typeof HUB_MCP_TOOLS)[K]['input']>

/** A tool's JSON result and whether it reports an error. */
export interface ToolJson {
  json: Record<string, unknown>
  isError: boolean
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** The hub tools bound to a hub service and the hub `muster mcp` was started for. */
export function hubTools(hubs: HubService, sel: HubSelection) {
  const write = async (run: () => Promise<Record<string, unknown>>): Promise<ToolJson> => {
    try {
      return { json: { success: true, ...(await run()) }, isError: false }
    } catch (err) {
      return { json: { success: false, error: message(err) }, isError: true }
    }
  }
  const read = async (run: () => Promise<Record<string, unknown>>): Promise<ToolJson> => {
    try {
      return { json: await run(), isError: false }
    } catch (err) {
      return { json: { error: message(err) }, isError: true }
    }
  }
  return {
    /** `mempalace_event_list`: order defaults to asc after a cursor, else desc (upstream). */
    mempalace_event_list: (a: Args<'mempalace_event_list'>) =>
      read(async () => {
        const r = await hubs.list({ ...sel, ...a, order: a.order ?? (a.since_event_id ? 'asc' : 'desc') })
        return { events: r.events, count: r.count }
      }),
    mempalace_event_wait: (a: Args<'mempalace_event_wait'>) =>
      read(async () => {
        const r = await hubs.wait({ ...sel, ...a })
        return { timed_out: r.timed_out, events: r.events, count: r.events.length }
      }),
    mempalace_event_append: (a: Args<'mempalace_event_append'>) =>
      write(async () => {
        assertInvocationsAllowed(a.body ?? '')
        return { event: (await hubs.append({ ...sel, ...a })).event }
      }),
    mempalace_event_ack: (a: Args<'mempalace_event_ack'>) =>
      write(async () => {
        assertInvocationsAllowed(a.body ?? '')
        return { event: (await hubs.ack({ ...sel, ...a })).event }
      }),
    mempalace_patch_submit: (a: Args<'mempalace_patch_submit'>) =>
      write(async () => {
        const r = await hubs.submitPatch({ ...sel, ...a })
        return { artifact: r.artifact, event: r.event }
      })
  }
}
