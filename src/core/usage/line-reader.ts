/**
 * Reads what a harness appended to one of its record files since the last read: from the stored
 * offset to the last complete line, in chunks (memory stays flat whatever the file's size), each
 * line handed to the harness's reader (`readers/`) with the state kept from the lines before.
 * - A file that is not the one read before (another device or inode: replaced, rotated) or is now
 *   shorter than the offset is read again from its start, with a fresh state (`restarted`).
 * - A line still being written (no newline yet) is left for the next read.
 * - A line longer than `maxLine` bytes, one that is not a JSON object, or one the reader fails
 *   on is skipped and counted, never fatal; reading goes on with the next line.
 * Asynchronous reads (libuv's pool), so a long first read leaves the event loop free between chunks.
 */
import { open } from 'node:fs/promises'
import { addTokens, noTokens, type TokenCounts } from '../../shared/contract/tokens'
import type { SessionFacts, UsageReader } from './readers'

/** Where the last read of a file ended. */
export interface ReadFrom {
  /** Device and inode of the file read (`dev:ino`). */
  file_id: string
  offset: number
  /** The reader's state after the last line read. */
  state: unknown
  /** True when the read ended inside a line too long to keep: its bytes are dropped up to its newline. */
  dropping?: boolean
}

/** Tokens of one model in one UTC hour (`YYYY-MM-DDTHH`). */
export interface UsageBucket {
  model: string
  hour: string
  tokens: TokenCounts
}

/** What one read found. */
export interface FileRead {
  file_id: string
  /** Where this read started (0 when it started over). */
  start: number
  /** Where the next read starts: after the last complete line. */
  offset: number
  size: number
  mtime_ms: number
  /** True when the file was read from its start again (a new file, or not the one read before). */
  restarted: boolean
  buckets: UsageBucket[]
  facts: SessionFacts
  /** Lines skipped: too long, not JSON, or not understood. */
  skipped: number
  state: unknown
  dropping: boolean
}

/** Bounds of one read. */
export interface ReadLimits {
  /** A longer line is skipped (and counted). */
  maxLine: number
  /** Bytes read at once. */
  chunk: number
}

/** 16 MiB lines (a transcript line holding a screenshot is a few MiB), 1 MiB reads. */
export const DEFAULT_LIMITS: ReadLimits = { maxLine: 16 * 1024 * 1024, chunk: 1024 * 1024 }

const NL = 0x0a
const HOUR_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/

/** The UTC hour of a record's time, or of `now` when it has none that reads as a time. */
export function hourOf(at: string | null, now: Date): string {
  if (at && HOUR_RE.test(at)) return at.slice(0, 13)
  const ms = at ? Date.parse(at) : NaN
  return (Number.isFinite(ms) ? new Date(ms) : now).toISOString().slice(0, 13)
}

/** Reads `path` from where `from` ended (or its start) with `reader`. */
export async function readUsageFile(
  path: string,
  reader: UsageReader,
  from: ReadFrom | null,
  limits: ReadLimits = DEFAULT_LIMITS,
  now = new Date()
): Promise<FileRead> {
  const fh = await open(path, 'r')
  try {
    const st = await fh.stat({ bigint: true })
    if (!st.isFile()) throw new Error(`${path} is not a file`)
    const file_id = `${st.dev}:${st.ino}`
    const size = Number(st.size)
    const same = !!from && from.file_id === file_id && from.offset <= size
    const start = same ? from!.offset : 0
    const state = same ? structuredClone(from!.state) : reader.start()
    const buckets = new Map<string, UsageBucket>()
    const facts: SessionFacts = {}
    let skipped = 0
    let pos = start
    let consumed = start
    let carry: Buffer = Buffer.alloc(0)
    // inside a line longer than maxLine (counted when found): its bytes are dropped up to its newline
    let dropping = same && from!.dropping === true
    const buf = Buffer.allocUnsafe(limits.chunk)
    const take = (line: string): void => {
      if (line.endsWith('\r')) line = line.slice(0, -1)
      if (line === '' || !reader.wanted(line)) return
      let record: unknown
      try {
        record = JSON.parse(line)
      } catch {
        skipped++
        return
      }
      if (!record || typeof record !== 'object' || Array.isArray(record)) {
        skipped++
        return
      }
      try {
        const got = reader.read(record as Record<string, unknown>, state)
        if (got.facts) {
          facts.session_id ??= got.facts.session_id
          facts.cwd ??= got.facts.cwd
        }
        for (const u of got.usage) {
          if (noTokens(u.tokens)) continue
          const hour = hourOf(u.at, now)
          const key = `${u.model}\u0000${hour}`
          const b = buckets.get(key)
          if (b) addTokens(b.tokens, u.tokens)
          else buckets.set(key, { model: u.model, hour, tokens: { ...u.tokens } })
        }
      } catch {
        skipped++
      }
    }
    while (pos < size) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos)
      if (bytesRead === 0) break
      pos += bytesRead
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead)
      let from0 = 0
      if (dropping) {
        const nl = data.indexOf(NL)
        if (nl < 0) {
          carry = Buffer.alloc(0)
          consumed = pos
          continue
        }
        dropping = false
        from0 = nl + 1
      }
      const last = data.lastIndexOf(NL)
      if (last < from0) {
        const rest = data.subarray(from0)
        if (rest.length > limits.maxLine) {
          skipped++
          dropping = true
          carry = Buffer.alloc(0)
          consumed = pos
        } else {
          carry = Buffer.from(rest)
          consumed = pos - rest.length
        }
        continue
      }
      const lines = data.toString('utf8', from0, last).split('\n')
      for (const line of lines) {
        if (line.length > limits.maxLine) skipped++
        else take(line)
      }
      const rest = data.subarray(last + 1)
      carry = rest.length ? Buffer.from(rest) : Buffer.alloc(0)
      consumed = pos - rest.length
    }
    // a line still being written waits for the next read (`consumed` stops before it)
    return {
      file_id,
      start,
      offset: consumed,
      size,
      mtime_ms: Number(st.mtimeMs),
      restarted: !same,
      buckets: [...buckets.values()],
      facts,
      skipped,
      state,
      dropping
    }
  } finally {
    await fh.close()
  }
}
