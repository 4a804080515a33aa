/**
 * The JSON body of a `POST /api/call/<method>`: its content type, and reading it with a size cap
 * that answers 413 instead of resetting the connection.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Largest request body accepted: 1 MiB. The biggest real call is a role-file edit or a hub body
 * (capped at 256 KiB by the hub) in JSON; anything larger is a mistake or abuse.
 */
export const MAX_REQUEST_BODY = 1024 * 1024

/**
 * After answering 413 the rest of the body is read and dropped (closing at once would reset the
 * connection and lose the answer); a client still sending after this long is cut off.
 */
const DRAIN_GRACE_MS = 2000

/** True for `application/json`, with or without parameters (`; charset=utf-8`), in any case. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false
  return header.split(';', 1)[0]!.trim().toLowerCase() === 'application/json'
}

/** The body as text, or `tooLarge` when it is over `limit` bytes (declared or actually sent). */
export type BodyRead = { text: string } | { tooLarge: true }

/**
 * Reads the body up to `limit` bytes. Over the limit it stops keeping bytes and resolves
 * `tooLarge` at once; the caller answers (413 with `Connection: close`) on `res`, and the remaining
 * bytes are drained, not kept, for at most DRAIN_GRACE_MS after that answer.
 */
export function readBody(req: IncomingMessage, res: ServerResponse, limit = MAX_REQUEST_BODY): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const tooLarge = (): void => {
      resolve({ tooLarge: true })
      req.resume()
      res.once('finish', () => setTimeout(() => req.destroy(), DRAIN_GRACE_MS).unref())
    }
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > limit) return tooLarge()
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (c: Buffer) => {
      if (over) return
      size += c.length
      if (size <= limit) return void chunks.push(c)
      over = true
      chunks.length = 0
      tooLarge()
    })
    req.on('end', () => {
      if (!over) resolve({ text: Buffer.concat(chunks).toString('utf8') })
    })
    req.on('error', reject)
  })
}
