/**
 * A scripted stand-in for the Gemini API (`GOOGLE_GEMINI_BASE_URL`) on 127.0.0.1, enough for the
 * real Gemini CLI to run one shell command: `POST /v1beta/models/<m>:streamGenerateContent?alt=sse`
 * streams one candidate. A request offering `run_shell_command` gets that call; once a
 * `functionResponse` comes back (or for a request without tools) the reply is text, and a request
 * asking for JSON (the CLI's model router) gets a small JSON answer. Every function response the
 * CLI sent back is kept, so a test can read what the model was told.
 */
import { serveLocal } from './stand-in-server'

/** A running stand-in. */
export interface GeminiStandIn {
  url: string
  /** The `functionResponse.response` objects the CLI sent back, in order. */
  responses: Record<string, unknown>[]
  /** How many replies of the conversation itself were answered (the routing classifier's JSON calls aside). */
  turns(): number
  close(): Promise<void>
}

type Part = { functionResponse?: { response?: Record<string, unknown> } }

/** The usage every reply reports: 10 prompt tokens (4 of them cached), 5 candidate tokens and 2 of thoughts. */
export const GEMINI_USAGE = {
  promptTokenCount: 10,
  cachedContentTokenCount: 4,
  candidatesTokenCount: 5,
  thoughtsTokenCount: 2,
  totalTokenCount: 17
} as const

/** Starts the stand-in; `command` is the shell command the scripted model runs. */
export async function startGeminiStandIn(command: string): Promise<GeminiStandIn> {
  const responses: Record<string, unknown>[] = []
  let turns = 0
  const server = await serveLocal((req, body, res) => {
    if (req.method !== 'POST' || !/:(stream)?generateContent/i.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":404,"message":"not here"}}')
      return
    }
    const parsed = JSON.parse(body) as {
      contents?: { parts?: Part[] }[]
      generationConfig?: { responseMimeType?: string }
      tools?: unknown[]
    }
    const back = (parsed.contents ?? []).flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse)
    for (const p of back.slice(responses.length)) responses.push(p.functionResponse!.response ?? {})
    const classifier = parsed.generationConfig?.responseMimeType === 'application/json'
    if (!classifier) turns++
    const part = classifier
      ? { text: JSON.stringify({ complexity_reasoning: 'simple', complexity_score: 10 }) }
      : back.length === 0 && body.includes('run_shell_command')
        ? { functionCall: { name: 'run_shell_command', args: { command, description: 'Create the marker file' } } }
        : { text: 'Finished.' }
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: GEMINI_USAGE
    }
    if (req.url!.includes('alt=sse')) res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(chunk)}\n\n`)
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chunk))
  })
  return { url: `http://127.0.0.1:${server.port}`, responses, turns: () => turns, close: server.close }
}
