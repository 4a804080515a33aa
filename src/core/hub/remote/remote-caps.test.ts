/**
 * Remote answers are bounded (issue 23, point 4): a hub server that sends an endless `/mcp` body or
 * an endless live-stream line is cut off with a clear error instead of growing this process, and
 * one that accepts and never answers runs into the call's timeout.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_MCP_BODY_BYTES, McpClient, readCapped } from './remote-mcp'
import { runStream } from './remote-stream'

const servers: (Server | NetServer)[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  for (const s of servers.splice(0)) await new Promise((r) => s.close(() => r(null)))
})

/** An HTTP server answering every request with `handler`; resolves with its base URL. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler)
  server.on('connection', (s) => sockets.push(s))
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Streams `total` bytes of `fill` in 64 KiB chunks (or until the client goes away). */
function flood(res: ServerResponse, total: number, fill: string, first = ''): void {
  const chunk = Buffer.alloc(64 * 1024, fill)
  let sent = 0
  res.write(first)
  const more = (): void => {
    while (sent < total) {
      sent += chunk.length
      if (!res.write(chunk)) return void res.once('drain', more)
    }
    res.end()
  }
  res.on('error', () => {})
  more()
}

describe('remote answers are capped', () => {
  it('an /mcp reply larger than the cap is refused, read no further', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      flood(res, 4 * 1024 * 1024, 'a', '{"jsonrpc":"2.0","id":1,"result":"')
    })
    // the real cap with a declared size above it: refused before reading
    const declared = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_MCP_BODY_BYTES + 1) })
      res.write('{')
    })
    await expect(new McpClient({ url: declared, token: null }).rpc('tools/list', {})).rejects.toThrow(
      `hub server ${declared} sent a reply larger than 64 MiB; it was not read`
    )
    // a streamed body past a (test-sized) cap
    const res = await fetch(`${url}/mcp`, { method: 'POST', body: '{}' })
    await expect(readCapped(res, url, 1024 * 1024)).rejects.toThrow(/sent a reply larger than 1 MiB; it was not read/)
  })

  it('a live-stream line longer than the cap closes the stream with a clear error', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(': ping\n\n')
      flood(res, 8 * 1024 * 1024, 'x', 'id: evt_1\nevent: logstream\ndata: ')
    })
    const opened: boolean[] = []
    const err = await runStream(
      { url, token: null },
      null,
      { opened: () => opened.push(true), events: () => {} },
      new AbortController().signal,
      45_000,
      1024 * 1024
    ).then(
      () => null,
      (e: unknown) => e as Error
    )
    expect(opened).toEqual([true])
    expect(err?.message).toBe(`hub server ${url} sent a live-stream event longer than 1 Mi characters; the stream was closed`)
  })

  it('a server that accepts and never answers: the call ends at its timeout', async () => {
    const hang = createNetServer((s) => sockets.push(s))
    servers.push(hang)
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()))
    const url = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`
    await expect(new McpClient({ url, token: null }, 300).rpc('tools/list', {})).rejects.toThrow(
      `cannot reach hub server ${url}: no answer (timed out)`
    )
  })
})
