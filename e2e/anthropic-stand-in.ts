/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1, enough for the real Claude Code
 * CLI to run a few tool calls in one session: `POST /v1/messages` answers with a streamed reply
 * (`message_start`, `content_block_start`, `content_block_delta`, `content_block_stop`,
 * `message_delta`, `message_stop`). The model asks for the script's tool calls one after another
 * (the next once the previous one's `tool_result` came back); after the last, the reply is a final
 * text. Every `tool_result` is kept, so a test can read what the model was told (a denial's reason
 * arrives as an error `tool_result`).
 */
import { createServer, type Server } from 'node:http'

/** What the model received back for its tool call. */
export interface ToolResult {
  tool_use_id: string
  is_error: boolean
  content: string
}

/** A running stand-in. */
export interface AnthropicStandIn {
  url: string
  /** The `tool_result` blocks the CLI sent, in order. */
  toolResults: ToolResult[]
  /** How many `/v1/messages` calls were answered. */
  calls(): number
  close(): Promise<void>
}

/** One tool call the scripted model asks for. */
export interface ToolStep {
  name: string
  input: Record<string, unknown>
}

/** The id of the script's `n`th tool call (the first keeps the id the one-call tests read). */
export const toolUseId = (n: number): string => (n === 0 ? 'toolu_muster_e2e' : `toolu_muster_e2e_${n}`)

type Block = { type: string; tool_use_id?: string; is_error?: boolean; content?: unknown }

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content))
    return content.map((c) => (c && typeof c === 'object' && 'text' in c ? String((c as { text: unknown }).text) : '')).join('')
  return ''
}

/**
 * The usage every reply reports (`message_start`, then the output in `message_delta`): fresh input,
 * cache writes and cache reads, and the output of a tool-use reply or of a text reply.
 */
export const ANTHROPIC_USAGE = {
  start: { input_tokens: 12, cache_creation_input_tokens: 40, cache_read_input_tokens: 100 },
  toolUseOutput: 8,
  textOutput: 4
} as const

/**
 * Starts the stand-in; `script` is the Bash command the scripted model asks to run, or the tool
 * calls it asks for in turn.
 */
export function startAnthropicStandIn(script: string | ToolStep[], opts: { perPrompt?: boolean } = {}): Promise<AnthropicStandIn> {
  const steps: ToolStep[] =
    typeof script === 'string' ? [{ name: 'Bash', input: { command: script, description: 'Create the marker file' } }] : script
  const toolResults: ToolResult[] = []
  let calls = 0
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d))
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}')
        return
      }
      calls++
      const parsed = JSON.parse(body) as { model: string; messages: { role: string; content: unknown }[] }
      const blocks = parsed.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []))
      const results = blocks.filter((b) => b.type === 'tool_result')
      for (const r of results)
        if (!toolResults.some((t) => t.tool_use_id === r.tool_use_id))
          toolResults.push({ tool_use_id: r.tool_use_id ?? '', is_error: r.is_error === true, content: textOf(r.content) })
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      const send = (event: string, data: unknown): void => void res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
      send('message_start', {
        type: 'message_start',
        message: {
          id: `msg_${calls}`,
          type: 'message',
          role: 'assistant',
          model: parsed.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...ANTHROPIC_USAGE.start, output_tokens: 1 }
        }
      })
      // perPrompt: each new prompt of the session takes the next step, and a tool's result ends the turn
      const isResult = (m: { content: unknown } | undefined): boolean =>
        Array.isArray(m?.content) && (m.content as Block[]).some((b) => b.type === 'tool_result')
      const prompts = parsed.messages.filter((m) => m.role === 'user' && !isResult(m)).length
      const at = opts.perPrompt ? (isResult(parsed.messages.at(-1)) ? -1 : prompts - 1) : results.length
      const step = at >= 0 ? steps[at] : undefined
      if (step) {
        send('content_block_start', {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: toolUseId(at), name: step.name, input: {} }
        })
        send('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) }
        })
        send('content_block_stop', { type: 'content_block_stop', index: 0 })
        send('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: ANTHROPIC_USAGE.toolUseOutput }
        })
      } else {
        send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
        send('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: results.at(-1)?.is_error ? 'The command was not run.' : 'Done.' }
        })
        send('content_block_stop', { type: 'content_block_stop', index: 0 })
        send('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: ANTHROPIC_USAGE.textOutput }
        })
      }
      send('message_stop', { type: 'message_stop' })
      res.end()
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      resolve({
        url: `http://127.0.0.1:${port}`,
        toolResults,
        calls: () => calls,
        close: () => new Promise((r) => server.close(() => r()))
      })
    })
  )
}
