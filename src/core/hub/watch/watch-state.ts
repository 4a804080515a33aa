/**
 * A watch's state file (upstream logstream.py `resolve_watch_state_file`, `read_watch_state`,
 * `write_watch_cursor`): `{"cursor": "evt_..."|null, "updated_at": "...Z", "agent": "..."}`
 * written via `<file>.tmp` + rename. "No cursor" is four different facts (absent, ok, empty,
 * corrupt) and only a genuinely absent file may start at the tip.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pyDumps } from '../../../shared/py-json'
import { pyLoads } from '../../../shared/py-json-parse'
import { decodeUtf8Strict } from '../../text'
import { makeDirSync } from '../../make-dir'
import { formatCreatedAt } from '../values/ids'
import { mempalaceDir, type PalaceEnv } from '../locate'
import { HubValidationError, pyStrip } from '../values/validate'

/**
 * What the state file says: `absent` (no file: a first run), `ok` (a cursor), `empty` (a file
 * recording `cursor: null`: a watcher that started on an empty hub; replay from the start, never
 * jump to the tip), `corrupt` (unreadable, not JSON, not an object, no `cursor` key: replay).
 */
export type WatchStateCondition = 'absent' | 'ok' | 'empty' | 'corrupt'

/** A read state file. */
export interface WatchState {
  condition: WatchStateCondition
  cursor: string | null
}

/** Upstream's state-file basename for an agent: trimmed, `_` -> `__`, then `:`, `/`, `\` -> `_`. */
export function watchStateBasename(agent: string): string {
  const id = pyStrip(agent)
  if (!id) throw new HubValidationError('agent identity is required to name a watch state file')
  const safe = id.replace(/_/g, '__').replace(/[:/\\]/g, '_')
  if (safe === '.' || safe === '..') throw new HubValidationError('agent identity sanitizes to an empty state-file name')
  return safe
}

/** `~/.mempalace/watch/<basename>.json`, the default `--state-file` of `watch --agent`. */
export function defaultWatchStateFile(agent: string, env: PalaceEnv = process.env): string {
  return join(mempalaceDir(env), 'watch', `${watchStateBasename(agent)}.json`)
}

/** The state file to use: an explicit path, `''` = none, else the agent's default (or none). */
export function resolveWatchStateFile(
  stateFile: string | undefined,
  agent: string | undefined,
  env: PalaceEnv = process.env
): string | null {
  if (stateFile) return stateFile
  if (stateFile === '') return null
  return agent ? defaultWatchStateFile(agent, env) : null
}

/** Reads a state file; any failure but "no such file" is `corrupt` (costs a replay, never a skip). */
export function readWatchState(file: string | null): WatchState {
  if (!file) return { condition: 'absent', cursor: null }
  let payload: unknown
  try {
    payload = pyLoads(decodeUtf8Strict(readFileSync(file)))
  } catch (err) {
    return { condition: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : 'corrupt', cursor: null }
  }
  if (!(payload instanceof Map)) return { condition: 'corrupt', cursor: null }
  const cursor = payload.get('cursor')
  if (typeof cursor === 'string' && cursor) return { condition: 'ok', cursor }
  return { condition: payload.has('cursor') ? 'empty' : 'corrupt', cursor: null }
}

/**
 * Persists a cursor atomically (tmp + rename), creating the folder. Ordinary checkpoints are best
 * effort (a lost one costs a replay); `required` (the first checkpoint of a fresh watch, whose loss
 * would skip events) throws the OS error instead.
 */
export function writeWatchCursor(file: string | null, cursor: string | null, agent: string | null, required = false): void {
  if (!file) return
  const payload: Record<string, string | null> = { cursor: cursor || null, updated_at: formatCreatedAt() }
  if (agent) payload.agent = agent
  const tmp = `${file}.tmp`
  try {
    makeDirSync(dirname(file), { mode: 0o700 })
    writeFileSync(tmp, pyDumps(payload))
    renameSync(tmp, file)
  } catch (err) {
    try {
      rmSync(tmp, { force: true })
    } catch {
      // nothing to clean up, or it cannot be: the write failed either way
    }
    if (required) throw err
  }
}
