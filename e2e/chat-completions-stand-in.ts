/**
 * A scripted stand-in for the OpenAI Chat Completions API on 127.0.0.1, enough for the real
 * GitHub Copilot CLI (`COPILOT_OFFLINE=true`, `COPILOT_PROVIDER_BASE_URL` here, an explicit
 * `--model`) to run one shell command: `POST /v1/chat/completions` (streamed, or not) answers the
 * first turn with a call of Copilot's `bash` tool with the given command, and any turn that
 * carries a tool result (or offers no `bash`) with a final message. Every tool result Copilot sent
 * back is kept, so a test can read what the model was told.
 */
import { serveLocal, textOf } from './stand-in-server'

/** A running stand-in. */
export interface ChatStandIn {
  /** The provider's base URL (`…/v1`). */
  url: string
  /** The tool results Copilot sent back (`role: tool` messages), in order. */
  toolResults: { tool_call_id: string; content: string }[]
  /** How many completions were answered. */
  calls(): number
  close(): Promise<void>
}

type Message = { role?: string; content?: unknown; tool_call_id?: string }

/** The usage every reply reports. */
export const CHAT_USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } as const

/** Starts the stand-in; `command` is the shell command the scripted model runs through `bash`. */
export async function startChatStandIn(command: string): Promise<ChatStandIn> {
  const toolResults: { tool_call_id: string; content: string }[] = []
  let calls = 0
  const server = await serveLocal((req, body, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}')
      return
    }
    calls++
    const parsed = JSON.parse(body) as {
      model?: string
      stream?: boolean
      messages?: Message[]
      tools?: { function?: { name?: string } }[]
    }
    const messages = parsed.messages ?? []
    for (const m of messages)
      if (m.role === 'tool' && !toolResults.some((t) => t.tool_call_id === m.tool_call_id))
        toolResults.push({ tool_call_id: m.tool_call_id ?? '', content: textOf(m.content) })
    const toolTurn = messages[messages.length - 1]?.role !== 'tool' && (parsed.tools ?? []).some((t) => t.function?.name === 'bash')
    const call = {
      id: 'call_muster_e2e',
      type: 'function',
      function: { name: 'bash', arguments: JSON.stringify({ command, description: 'Create the marker file' }) }
    }
    const message = toolTurn ? { role: 'assistant', content: null, tool_calls: [call] } : { role: 'assistant', content: 'Done.' }
    const finish = toolTurn ? 'tool_calls' : 'stop'
    const base = { id: `chatcmpl_${calls}`, created: 1_796_000_000, model: parsed.model ?? 'stand-in' }
    if (!parsed.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: finish }],
          usage: CHAT_USAGE
        })
      )
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const chunk = (data: Record<string, unknown>): void =>
      void res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...data })}\n\n`)
    const delta = toolTurn ? { role: 'assistant', tool_calls: [{ index: 0, ...call }] } : { role: 'assistant', content: 'Done.' }
    chunk({ choices: [{ index: 0, delta, finish_reason: null }] })
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: finish }] })
    chunk({ choices: [], usage: CHAT_USAGE })
    res.end('data: [DONE]\n\n')
  })
  return { url: `http://127.0.0.1:${server.port}/v1`, toolResults, calls: () => calls, close: server.close }
}
