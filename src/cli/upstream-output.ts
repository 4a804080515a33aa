/**
 * Output of the commands that twin `mempalace logstream|task|artifact` (upstream
 * cli/cmd_coord.py), byte for byte: `--json` documents as Python's `json.dumps(x, indent=2,
 * ensure_ascii=False)` (compact `json.dumps(x, ensure_ascii=False)` lines for `watch --follow`),
 * metadata printed from the stored text so ints past 2^53 and `1.0` come out as stored, the
 * `{"error": ...}` document as `json.dumps({"error": msg})`, and the human event line
 * (`_print_event_line`).
 */
import type { HubEventEnvelope } from '../shared/api'
import { pyDumps } from '../shared/py-json'
import { pyLoads } from '../shared/py-json-parse'
import type { CliIo } from './output'
import { visible } from '../shared/visible-text'
import { OUT_OF_SEQUENCE, outOfSequence } from '../shared/hub-sequence'

/** Replaces `metadata` with the exact stored text's value wherever `metadata_json` rides along (and drops that key). */
function exact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(exact)
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value
  const o = value as Record<string, unknown>
  const text = typeof o.metadata_json === 'string' ? o.metadata_json : null
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) {
    if (k === 'metadata_json' && text !== null) continue
    out[k] = k === 'metadata' && text !== null ? pyLoads(text) : exact(v)
  }
  return out
}

/** A `--json` document as upstream prints it (`indent=2`), or one compact line (`follow`). */
export function upstreamJson(value: unknown, compact = false): string {
  return pyDumps(exact(value), compact ? { loneSurrogates: 'escape' } : { indent: 2, loneSurrogates: 'escape' }) + '\n'
}

/** Prints a `--json` document as upstream does. */
export function printUpstreamJson(io: CliIo, value: unknown): void {
  io.stdout(upstreamJson(value))
}

/** One event as upstream's human output prints it (`_print_event_line`). */
export function upstreamEventLine(e: HubEventEnvelope): string {
  const target = e.to_agent || '*'
  const corr = e.correlation_id ? ` corr=${e.correlation_id}` : ''
  const topic = e.topic ? ` topic=${e.topic}` : ''
  const status = e.status ? ` [${e.status}]` : ''
  const arts = e.artifact_ids.length ? ` artifacts=${e.artifact_ids.length}` : ''
  let body = [...e.body.replace(/\n/g, ' ')]
  if (body.length > 80) body = [...body.slice(0, 77), '.', '.', '.']
  const text = body.length ? ` :: ${body.join('')}` : ''
  // what agents wrote may hold terminal escapes: shown escaped (tabs stay, as upstream prints them)
  const line = `  ${e.id}  ${e.created_at}  ${e.type}  ${e.stream}/${e.room}  ${e.from_agent}->${target}${status}${topic}${corr}${arts}${text}`
  return `${visible(line, { keepTabs: true })}${outOfSequenceNote(e)}\n`
}

/**
 * Said after a row whose rowid is above 2^53 (not upstream's: no such row comes from a writer that
 * lets SQLite number its rows): another writer placed it there, and rows written after a row at
 * the top of the range cannot follow it.
 */
export function outOfSequenceNote(e: HubEventEnvelope): string {
  return outOfSequence(e.seq) ? `  (${OUT_OF_SEQUENCE}: rowid above 2^53, placed by its writer)` : ''
}

/** `N event(s):` and a line per event, or `No matching events.` (upstream list/wait/watch). */
export function printUpstreamEvents(io: CliIo, events: HubEventEnvelope[]): void {
  if (events.length === 0) return io.stdout('No matching events.\n')
  io.stdout(`${events.length} event(s):\n`)
  for (const e of events) io.stdout(upstreamEventLine(e))
}
