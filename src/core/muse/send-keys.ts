/**
 * Idempotency keys of sends: a send retried with the same key (a client that timed out, a CLI run
 * again) writes nothing new. The key is recorded in Muster's home (`send-keys.json`) before the
 * edit, with a digest of the request, and gets the directive's id once written. A retry whose key
 * is there returns that directive while the sender's file holds it, sends it again under the same
 * id when another writer dropped it, and, while the first attempt never finished (a crash between
 * the edit and the record), takes a directive with the same target and title in the file for the
 * earlier attempt's. The same key with a different request is refused. Keys are kept 7 days (at
 * most 2,000).
 */
import { createHash } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'

/** The longest key accepted. */
export const MAX_KEY_CHARS = 200
const KEEP_MS = 7 * 24 * 3600_000
const KEEP_MAX = 2000

/** What a key stands for. */
export interface KeyRecord {
  /** Digest of the request (project, from, to, title, body, id). */
  request: string
  /** The directive's id once written, null while the first attempt runs (or crashed). */
  id: string | null
  at: number
}

/** The send fields a key covers. */
export interface KeyedRequest {
  project: string
  from: string
  to: string
  title: string
  body: string
  id?: string
}

/** A digest of the request a key was used for. */
export function requestDigest(r: KeyedRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([r.project, r.from, r.to, r.title.trim(), r.body, r.id ?? null]))
    .digest('hex')
}

/** The keys file of one Muster home. */
export class SendKeys {
  private readonly file: string
  constructor(home: string) {
    this.file = join(home, 'send-keys.json')
  }

  private async load(): Promise<Record<string, KeyRecord>> {
    try {
      const data = JSON.parse(await fs.readFile(this.file, 'utf8')) as unknown
      return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, KeyRecord>) : {}
    } catch {
      return {}
    }
  }

  private async save(all: Record<string, KeyRecord>): Promise<void> {
    const now = Date.now()
    const kept = Object.entries(all)
      .filter(([, r]) => now - r.at < KEEP_MS)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, KEEP_MAX)
    const tmp = `${this.file}.${process.pid}.tmp`
    try {
      // Muster's own state in its home, not a file agents write: no safeEdit needed
      // eslint-disable-next-line no-restricted-syntax
      await fs.writeFile(tmp, JSON.stringify(Object.fromEntries(kept)), { mode: 0o600 })
      // eslint-disable-next-line no-restricted-syntax
      await fs.rename(tmp, this.file)
    } catch (err) {
      await fs.rm(tmp, { force: true })
      throw new ApiError(
        `cannot record the send's idempotency key in ${this.file} (it is what makes a retry safe): ${(err as Error).message}`,
        'internal'
      )
    }
  }

  /** The record of `key` (checked against the request), or null for a new key; a new key is recorded as pending. */
  async claim(key: string, request: string): Promise<KeyRecord | null> {
    const all = await this.load()
    const had = all[key]
    if (had && had.request !== request) throw new ApiError(`idempotency key '${key}' was already used for a different send`, 'conflict')
    if (had) return had
    all[key] = { request, id: null, at: Date.now() }
    await this.save(all)
    return null
  }

  /** Records the id a key's send wrote. */
  async done(key: string, request: string, id: string): Promise<void> {
    const all = await this.load()
    all[key] = { request, id, at: Date.now() }
    await this.save(all)
  }
}
