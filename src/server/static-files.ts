/**
 * Serves the built renderer (`out/renderer`) with safe path resolution and content types.
 */
import { promises as fs } from 'node:fs'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { isInside } from '../shared/path-inside'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8'
}

/** A file to send: its bytes and content type. */
export interface StaticFile {
  body: Buffer
  type: string
  immutable: boolean
}

/**
 * Resolves a URL path inside `root`; null for traversal attempts, missing files, and symbolic
 * links that lead out of `root` (the real path of the file must be inside the real root).
 */
export async function readStatic(staticRoot: string, urlPath: string): Promise<StaticFile | null> {
  const root = resolve(staticRoot)
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  const rel = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '')
  const full = normalize(join(root, rel))
  if (!isInside(full, root, sep)) return null
  try {
    const [realRoot, real] = await Promise.all([fs.realpath(root), fs.realpath(full)])
    if (!isInside(real, realRoot, sep)) return null
    const st = await fs.stat(real)
    if (!st.isFile()) return null
    return {
      body: await fs.readFile(real),
      type: TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream',
      immutable: rel.startsWith('assets/')
    }
  } catch {
    return null
  }
}
