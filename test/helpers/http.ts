/** Raw HTTP requests for server tests, so Host, Origin, cookies and bodies can be forged. */
import { request } from 'node:http'

/** A reply: status, headers and the body as text. */
export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** Options of `raw`: the body may be sent in several chunks (chunked encoding, no Content-Length). */
export interface RawOptions {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  chunks?: Buffer[]
}

/** One request to 127.0.0.1:`port` with the Host header set unless given. */
export function raw(port: number, path: string, opts: RawOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...opts.headers } },
      (res) => {
        let body = ''
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
      }
    )
    req.on('error', reject)
    for (const c of opts.chunks ?? []) req.write(c)
    req.end(opts.body)
  })
}
