/**
 * OpenCode asks through its server, not a hook command: a `permission.asked` event
 * (`id`, `sessionID`, `permission`, `patterns`, `metadata`, `always`, `tool`), answered with
 * `POST /permission/:id/reply` `{reply: "once" | "always" | "reject", message?}`. Muster's
 * OpenCode plugin (`opencode-plugin.ts`) hands each asked event to `muster approve-hook --harness
 * opencode` on stdin and sends back the `reply` it prints; `null` leaves the question to
 * OpenCode's own prompt.
 */
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { HookInputError, line, optText, type HarnessAdapter, type HookReply } from './types'

/** The properties of OpenCode's `permission.asked` event (or the event itself). */
function propsOf(o: Record<string, unknown>): Record<string, unknown> {
  const p = o.type === 'permission.asked' ? o.properties : o
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw new HookInputError('OpenCode permission.asked event has no properties')
  return p as Record<string, unknown>
}

const reject = (reason: string): HookReply => ({ stdout: line({ reply: 'reject', message: reason }), exitCode: 0 })

/** OpenCode. */
export const opencode: HarnessAdapter = {
  id: Harness.opencode,
  recognizes: (o) => o.type === 'permission.asked',
  parse: (o) => {
    const p = propsOf(o)
    const permission = p.permission
    if (typeof permission !== 'string' || permission.trim() === '') throw new HookInputError('OpenCode permission.asked has no permission')
    const patterns = Array.isArray(p.patterns) ? p.patterns.filter((x): x is string => typeof x === 'string') : []
    const metadata =
      p.metadata && typeof p.metadata === 'object' && !Array.isArray(p.metadata) ? (p.metadata as Record<string, unknown>) : {}
    const tool = p.tool && typeof p.tool === 'object' ? (p.tool as Record<string, unknown>) : {}
    // a shell call reads as one: OpenCode's bash permission carries the command as its pattern
    const input =
      permission === 'bash'
        ? { command: typeof metadata.command === 'string' ? metadata.command : patterns.join(' && '), ...metadata }
        : { patterns, ...metadata }
    return {
      harness: Harness.opencode,
      event: 'permission.asked',
      tool_name: permission,
      tool_input: input,
      session_id: optText(p, 'sessionID'),
      cwd: typeof o.directory === 'string' ? o.directory : null,
      tool_use_id: typeof tool.callID === 'string' ? tool.callID : optText(p, 'id'),
      transcript_path: null,
      suggestions: Array.isArray(p.always) ? (p.always as unknown[]) : null
    }
  },
  answer: (_call, verdict, reason, extras) =>
    verdict === 'ask'
      ? { stdout: line({ reply: null }), exitCode: 0 }
      : verdict === 'deny'
        ? reject(reason)
        : { stdout: line({ reply: extras?.always ? 'always' : 'once' }), exitCode: 0 },
  refuse: (reason) => reject(reason)
}
