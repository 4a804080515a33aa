/**
 * A scripted stand-in for the OpenAI Responses API on 127.0.0.1, enough for the real Codex CLI
 * (a `model_providers` entry with `base_url` here and `wire_api = "responses"`) to run one shell
 * command: `POST /v1/responses` streams `response.created`, one `response.output_item.done` and
 * `response.completed`. The first turn calls Codex's `exec_command` tool with the given command;
 * once a `function_call_output` comes back (or for a request without that tool) the reply is a
 * final message. Every tool output Codex
 * sent back is kept, so a test can read what the model was told.
 */
import { serveLocal, textOf } from './stand-in-server'

/** A running stand-in. */
export interface ResponsesStandIn {
  /** The provider's base URL (`…/v1`). */
  url: string
  /** The `function_call_output` items Codex sent back, in order. */
  outputs: { call_id: string; output: string }[]
  /** How many `/v1/responses` calls were answered. */
  calls(): number
  /** The tool names Codex offered in its last request. */
  tools(): string[]
  close(): Promise<void>
}

type Item = { type?: string; call_id?: string; output?: unknown }

/** The usage every reply reports: 10 input tokens (4 of them read from the cache), 5 output (2 of them reasoning). */
export const RESPONSES_USAGE = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 4 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 2 },
  total_tokens: 15
} as const

/**
 * Starts the stand-in; `command` is the shell command the scripted model runs through
 * `exec_command`. With `escalate`, the call asks to run outside the sandbox (which an interactive
 * Codex with `-a on-request` asks the person about).
 */
export async function startResponsesStandIn(command: string, escalate = false): Promise<ResponsesStandIn> {
  const outputs: { call_id: string; output: string }[] = []
  let calls = 0
  let tools: string[] = []
  const server = await serveLocal((req, body, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}')
      return
    }
    calls++
    const parsed = JSON.parse(body) as { input?: Item[]; tools?: { name?: string; type?: string }[] }
    tools = (parsed.tools ?? []).map((t) => t.name ?? t.type ?? '')
    const input = (parsed.input ?? []).filter((i) => i.type === 'function_call_output')
    for (const o of input)
      if (!outputs.some((x) => x.call_id === o.call_id)) outputs.push({ call_id: o.call_id ?? '', output: textOf(o.output) })
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = (type: string, data: Record<string, unknown>): void =>
      void res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
    const id = `resp_${calls}`
    send('response.created', { response: { id } })
    // Codex also asks the model things without tools (a thread title, say): those get a plain message
    const item =
      input.length || !tools.includes('exec_command')
        ? { type: 'message', role: 'assistant', id: `msg_${calls}`, content: [{ type: 'output_text', text: 'Finished.' }] }
        : {
            type: 'function_call',
            id: `fc_${calls}`,
            call_id: 'call_muster_e2e',
            name: 'exec_command',
            arguments: JSON.stringify(
              escalate
                ? { cmd: command, sandbox_permissions: 'require_escalated', justification: 'Create the marker file outside the sandbox?' }
                : { cmd: command }
            )
          }
    send('response.output_item.done', { output_index: 0, item })
    send('response.completed', {
      response: {
        id,
        usage: RESPONSES_USAGE
      }
    })
    res.end()
  })
  return { url: `http://127.0.0.1:${server.port}/v1`, outputs, calls: () => calls, tools: () => tools, close: server.close }
}
