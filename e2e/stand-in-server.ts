/** What the scripted model stand-ins share: a message content's text, and an HTTP server on a free port of 127.0.0.1. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

/** The text of a content field: a string as it is, an array of parts as their `text` joined. */
export const textOf = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : Array.isArray(v)
      ? v.map((p) => (p && typeof p === 'object' && 'text' in p ? String(p.text) : '')).join('')
      : ''

/** A listening stand-in server: its port, and how to close it. */
export interface LocalServer {
  port: number
  close(): Promise<void>
}

/** Listens on a free port of 127.0.0.1, handing `handle` each request once its whole body has come. */
export function serveLocal(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<LocalServer> {
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d))
    req.on('end', () => handle(req, body, res))
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as { port: number }).port, close: () => new Promise((r) => server.close(() => r())) })
    )
  )
}
