/**
 * Reads a hook's stdin: which harness sent it (the `--harness` flag, else the payload as a whole)
 * and the tool call it asks about. A payload no adapter recognises, or one its harness's adapter
 * cannot use, is refused in the way that blocks the call (that harness's deny, or exit 2 with the
 * reason on stderr): never exit 1, which every harness reads as "go ahead". No zod: this runs in
 * the hook process, on every tool call of every agent.
 */
import { adapterFor, detectHarness, HookInputError, type HarnessAdapter, type HarnessCall, type HookReply } from './harnesses'
import { exitTwo } from './harnesses/types'

/** Stdin larger than this is refused (a tool input fits easily; the hub keeps 64 KiB of it). */
export const MAX_HOOK_INPUT_BYTES = 8 * 1024 * 1024

/**
 * The payload `muster gates` sends through an installed gate's own command line to see that it
 * resolves and starts: the hook answers it with exit 2 (blocked, should a harness ever send it)
 * and `GATE_PROBE_ANSWER` on stderr, before opening anything, and records nothing.
 */
export const GATE_PROBE = '{"muster_gate_probe":1}'
/** The start of the hook's answer to a probe. */
export const GATE_PROBE_ANSWER = 'muster approve-hook: gate probe answered by Muster'

/** True for the gate probe's payload. */
export function isGateProbe(text: string): boolean {
  return text.trim() === GATE_PROBE
}

/** Where a payload comes from, as installed: `--harness` and `--event`. */
export interface HookSource {
  harness?: string
  event?: string
}

/** A payload read: its adapter and call, or the refusal to print. */
export type ReadHook = { ok: true; adapter: HarnessAdapter; call: HarnessCall } | { ok: false; reason: string; reply: HookReply }

const refusal = (reason: string, adapter: HarnessAdapter | null, event?: string): ReadHook => {
  const why = `muster approve-hook: ${reason}; the call is blocked and nothing was recorded`
  return { ok: false, reason: why, reply: adapter ? adapter.refuse(why, event) : exitTwo(why) }
}

/** Reads a hook's stdin text. */
export function readHookInput(text: string, src: HookSource = {}): ReadHook {
  const named = src.harness ? adapterFor(src.harness) : null
  if (src.harness && !named) return refusal(`unknown --harness '${src.harness}'`, null)
  if (text.trim() === '') return refusal('no hook input on stdin (expected the harness hook JSON)', named, src.event)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    return refusal(`stdin is not valid JSON (${(err as Error).message})`, named, src.event)
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return refusal('hook input must be a JSON object', named, src.event)
  const o = value as Record<string, unknown>
  const adapter = named ?? detectHarness(o, src.event)
  if (!adapter) {
    const event = typeof o.hook_event_name === 'string' ? ` (hook_event_name '${o.hook_event_name}')` : ''
    return refusal(`this hook input is from no harness Muster knows${event}`, null)
  }
  try {
    return { ok: true, adapter, call: adapter.parse(o, src.event) }
  } catch (err) {
    if (!(err instanceof HookInputError)) throw err
    return refusal(err.message, adapter, src.event)
  }
}
