/**
 * A proxy in front of a hub server that stages the capability race of issue 36 (point 7) with a
 * hook instead of timing: a `/mcp` reply refusing the `writer` argument (-32602) is held back until
 * `probes` `tools/list` replies have gone out, so the client's capability probe always lands while
 * its refused call is in flight. Everything else passes through as it is (the live stream too).
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** A running proxy. */
export interface HoldProxy {
  url: string
  /** `tools/list` replies sent so far. */
  probes(): number
  /** `writer` refusals held back so far (each is sent once enough probes went out). */
  held(): number
  close(): Promise<void>
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (d: Buffer) => parts.push(d))
    req.on('end', () => resolve(Buffer.concat(parts)))
    req.on('error', reject)
  })
}

/**
 * Starts a proxy to `target` that holds `writer` refusals until `probes` probes were answered;
 * with `refuseProbes` every probe is answered with a JSON-RPC error instead (a client then learns
 * the hub's age from the refusal alone).
 */
export async function holdProxy(target: string, probes = 1, o: { refuseProbes?: boolean } = {}): Promise<HoldProxy> {
  const to = new URL(target)
  let listed = 0
  let heldCount = 0
  const waiting: (() => void)[] = []
  const sockets = new Set<Socket>()
  const forward = (
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer | null,
    onReply?: (status: number, headers: IncomingMessage['headers'], data: Buffer) => void
  ): void => {
    const out = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } },
      (up) => {
        if (!onReply) {
          res.writeHead(up.statusCode ?? 502, up.headers)
          up.pipe(res)
          return
        }
        void readBody(up).then((data) => onReply(up.statusCode ?? 502, up.headers, data))
      }
    )
    out.on('error', () => res.destroy())
    res.on('close', () => out.destroy())
    if (body) out.end(body)
    else req.pipe(out)
  }
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/mcp')) return forward(req, res, null)
    void readBody(req).then((body) => {
      let method = ''
      try {
        method = (JSON.parse(body.toString()) as { method?: string }).method ?? ''
      } catch {
        // not JSON: passed on as it is
      }
      forward(req, res, body, (status, headers, data) => {
        const send = (): void => {
          res.writeHead(status, headers)
          res.end(data)
        }
        if (method === 'tools/list') {
          if (o.refuseProbes) {
            const id = (JSON.parse(body.toString()) as { id?: unknown }).id ?? null
            res.writeHead(200, { 'content-type': 'application/json' })
            res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'tools/list is unavailable' } }))
          } else send()
          listed++
          if (listed >= probes) for (const w of waiting.splice(0)) w()
          return
        }
        const text = data.toString()
        if (method === 'tools/call' && text.includes('-32602') && text.includes("'writer'") && listed < probes) {
          heldCount++
          waiting.push(send)
          return
        }
        send()
      })
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    probes: () => listed,
    held: () => heldCount,
    close: async () => {
      for (const w of waiting.splice(0)) w()
      for (const s of sockets) s.destroy()
      await new Promise((r) => server.close(() => r(null)))
    }
  }
}
