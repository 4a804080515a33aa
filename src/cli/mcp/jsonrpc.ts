/**
 * `muster mcp`'s JSON-RPC layer, following MemPalace's own MCP server (mempalace/mcp_server/
 * protocol.py `handle_request` and runtime.py `_run_stdio_loop`, commit 83ac0404) rather than an
 * SDK, because agents meet its exact behaviour:
 * - one request per line, parsed like Python's `json.loads` (ints past 2^53, `1.0`, `-0.0` and any
 *   id kept exactly, `shared/py-json-parse`); a line that is not JSON is answered -32700 with id
 *   null; a request that is not an object, or has neither a method string nor an id (`{}`), -32600
 *   "Invalid Request" with id null; every request with an id is
 *   answered with that id as given (a float, a big int, even an object); notifications never are;
 * - `initialize` (protocol version negotiated from upstream's list), `ping`, `tools/list`,
 *   `tools/call`; an unknown method is -32601 "Unknown method: m" unless it is a notification;
 * - `tools/call`: -32602 "Invalid params: 'name' is required for tools/call", "'name' must be a
 *   string and 'arguments' an object"; -32601 "Unknown tool: t"; for tools that check their
 *   arguments, -32602 "Unknown parameter 'x' for tool t" (before anything runs), integer
 *   arguments converted as Python's `int()` does (`"3"` is 3) else -32602 "Invalid value for
 *   parameter 'x'", -32602 "Missing required parameter 'x' for tool t"; a tool that throws is
 *   -32000 "Internal tool error" with `data: {error_class, message}`;
 * - answers are compact lines written like Python's `json.dumps(response, ensure_ascii=False)`.
 */
import { pyDumps, PyFloat, type PyJson } from '../../shared/py-json'
import { pyLoads } from '../../shared/py-json-parse'
import type { McpInputSchema } from '../../shared/contract/mcp-tools'

/** Protocol versions upstream negotiates (newest first; a client's unknown version gets the first). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const

/** The arguments a tool is called with, parsed exactly (`PyJson` values). */
export type ToolArgs = Record<string, PyJson>

/** What a tool answers: the text of its one content block, flagged as an error or not. */
export interface ToolResult {
  text: string
  isError?: boolean
}

/** One tool as the dispatcher serves it. */
export interface RpcTool {
  description: string
  inputSchema: McpInputSchema
  /** Check argument names, integer values and required arguments, as MemPalace's tools are checked (MUSE's server checks none). */
  strictArguments: boolean
  call(args: ToolArgs, signal: AbortSignal): Promise<ToolResult>
}

/** The server's identity in `initialize`. */
export interface ServerInfo {
  name: string
  version: string
}

type Response = Map<string, PyJson>

const response = (id: PyJson, key: 'result' | 'error', value: PyJson): Response =>
  new Map<string, PyJson>([
    ['jsonrpc', '2.0'],
    ['id', id],
    [key, value]
  ])
const rpcError = (id: PyJson, code: number, message: string, data?: PyJson): Response =>
  response(id, 'error', data === undefined ? { code, message } : { code, message, data })

const isObject = (v: PyJson | undefined): v is Map<string, PyJson> => v instanceof Map

/** Python's `'x', 'y'` quoting of argument names in upstream's messages. */
const quoted = (names: string[]): string => names.map((n) => `'${n}'`).join(', ')
const word = (names: string[]): string => (names.length === 1 ? 'parameter' : 'parameters')

/**
 * Python's `int(value)` for a JSON value: ints as they are, floats truncated, strings of digits
 * (signs, surrounding whitespace, `_` separators), booleans as 0/1; null for anything else.
 */
export function pyInt(value: PyJson): number | bigint | null {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'bigint') return value
  const n = value instanceof PyFloat ? value.value : value
  if (typeof n === 'number') return Number.isFinite(n) ? Math.trunc(n) : null
  if (typeof value !== 'string') return null
  const s = value.trim()
  if (!/^[+-]?\d+(?:_\d+)*$/.test(s)) return null
  const big = BigInt(s.replace(/_/g, ''))
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big
}

/** Python's `float(value)` for a JSON value, or null. */
function pyNumber(value: PyJson): number | null {
  if (typeof value === 'number') return value
  if (value instanceof PyFloat) return value.value
  if (typeof value === 'bigint' || typeof value === 'boolean') return Number(value)
  if (typeof value !== 'string' || !/^\s*[+-]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/.test(value)) return null
  return Number(value.trim().replace(/_/g, ''))
}

/** A JSON-RPC dispatcher over a table of tools. */
export class JsonRpcDispatcher {
  constructor(
    private readonly info: ServerInfo,
    private readonly tools: Record<string, RpcTool>
  ) {}

  /** Answers one input line: the response line, or null when none is owed (a notification). */
  async line(text: string, signal: AbortSignal): Promise<string | null> {
    let request: PyJson
    try {
      request = pyLoads(text)
    } catch {
      return dump(rpcError(null, -32700, 'Parse error'))
    }
    const answer = await this.handle(request, signal)
    return answer === null ? null : dump(answer)
  }

  /** Answers one parsed request (upstream `handle_request`). */
  async handle(request: PyJson, signal: AbortSignal): Promise<Response | null> {
    if (!isObject(request)) return rpcError(null, -32600, 'Invalid Request')
    const id = request.has('id') ? request.get('id')! : null
    const rawMethod = request.get('method')
    const method = typeof rawMethod === 'string' ? rawMethod : ''
    const rawParams = request.get('params')
    const params = isObject(rawParams) ? rawParams : new Map<string, PyJson>()
    if (method === 'initialize') {
      const wanted = params.get('protocolVersion') ?? SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1]!
      const version = (SUPPORTED_PROTOCOL_VERSIONS as readonly PyJson[]).includes(wanted) ? wanted : SUPPORTED_PROTOCOL_VERSIONS[0]
      return response(id, 'result', { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { ...this.info } })
    }
    if (method === 'ping') return response(id, 'result', {})
    if (method.startsWith('notifications/')) return null
    if (method === 'tools/list') {
      const tools = Object.entries(this.tools).map(([name, t]) => ({
        name,
        description: t.description,
        inputSchema: t.inputSchema as unknown as PyJson
      }))
      return response(id, 'result', { tools })
    }
    if (method === 'tools/call') return this.call(id, params, signal)
    // without a method string it is no notification but an invalid request (`{}`): JSON-RPC 2.0
    // answers -32600 with id null at once, where a silent wait would hang the client
    if (typeof rawMethod !== 'string' && !request.has('id')) return rpcError(null, -32600, 'Invalid Request')
    if (id === null) return null
    const message =
      typeof rawMethod === 'string' ? `Unknown method: ${rawMethod}` : `Unknown method: expected a string, got ${pyTypeName(rawMethod)}`
    return rpcError(id, -32601, message)
  }

  private async call(id: PyJson, params: Map<string, PyJson>, signal: AbortSignal): Promise<Response> {
    if (!params.has('name')) return rpcError(id, -32602, "Invalid params: 'name' is required for tools/call")
    const name = params.get('name')
    const rawArgs = params.get('arguments')
    if (typeof name !== 'string' || !(rawArgs === undefined || rawArgs === null || isObject(rawArgs)))
      return rpcError(id, -32602, "Invalid params: 'name' must be a string and 'arguments' an object")
    const tool = Object.hasOwn(this.tools, name) ? this.tools[name] : undefined
    if (!tool) return rpcError(id, -32601, `Unknown tool: ${name}`)
    const args: ToolArgs = Object.create(null) as ToolArgs
    for (const [k, v] of isObject(rawArgs) ? rawArgs : []) args[k] = v
    if (tool.strictArguments) {
      const props = tool.inputSchema.properties
      const unknown = Object.keys(args).filter((k) => !Object.hasOwn(props, k))
      if (unknown.length) return rpcError(id, -32602, `Unknown ${word(unknown)} ${quoted(unknown)} for tool ${name}`)
      for (const [key, value] of Object.entries(args)) {
        const type = props[key]!.type
        if (type === 'integer' && typeof value !== 'number' && typeof value !== 'bigint') {
          const n = pyInt(value)
          if (n === null) return rpcError(id, -32602, `Invalid value for parameter '${key}'`)
          args[key] = n
        } else if (type === 'integer' && typeof value === 'number' && !Number.isInteger(value)) {
          args[key] = Math.trunc(value)
        } else if (type === 'number' && typeof value !== 'number') {
          const n = pyNumber(value)
          if (n === null) return rpcError(id, -32602, `Invalid value for parameter '${key}'`)
          args[key] = n
        }
      }
      const missing = tool.inputSchema.required.filter((k) => !(k in args))
      if (missing.length) return rpcError(id, -32602, `Missing required ${word(missing)} ${quoted(missing)} for tool ${name}`)
    }
    try {
      const r = await tool.call(args, signal)
      return response(
        id,
        'result',
        r.isError ? { content: [{ type: 'text', text: r.text }], isError: true } : { content: [{ type: 'text', text: r.text }] }
      )
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err))
      return rpcError(id, -32000, 'Internal tool error', { error_class: e.name || 'Error', message: e.message })
    }
  }
}

/** Python's `type(x).__name__` of a JSON value. */
function pyTypeName(v: PyJson | undefined): string {
  if (v === undefined || v === null) return 'NoneType'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float'
  if (typeof v === 'bigint') return 'int'
  if (v instanceof PyFloat) return 'float'
  if (Array.isArray(v)) return 'list'
  return 'dict'
}

/** One response line, as Python's `json.dumps(response, ensure_ascii=False)` writes it. */
function dump(r: Response): string {
  return pyDumps(r, { loneSurrogates: 'escape' })
}
