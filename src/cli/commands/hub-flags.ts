/**
 * Flag definitions shared by the hub commands (`events`, `thread`, `task`), as upstream's parser
 * (cli/parser.py) declares them: `list`/`wait` filters take one value (a repeated flag keeps the
 * last, argparse's `store`), `watch` filters repeat and match any (`append`). Light on purpose:
 * loaded for every `muster` run (see `../lazy.ts`).
 */
import type { Command } from 'commander'

/** Commander collector for repeatable flags. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

/** Parses a non-negative integer flag (commands without an upstream twin). */
export function intFlag(name: string): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v.trim())) throw new Error(`${name} must be a non-negative integer, got '${v}'`)
    return Number(v)
  }
}

/** The filter flags of list/wait/watch and their snake_case keys, with upstream's help examples. */
export const FILTER_FLAGS = [
  ['stream', 'stream', 'stream, e.g. project/mempalace'],
  ['room', 'room', 'room, e.g. delegation, patches'],
  ['topic', 'topic', 'topic, e.g. auth-v2'],
  ['type', 'type', 'event type, e.g. task.request'],
  ['to-agent', 'to_agent', "target agent (also matches '*')"],
  ['from-agent', 'from_agent', 'writer agent'],
  ['correlation-id', 'correlation_id', 'task/conversation id'],
  ['status', 'status', 'open|claimed|ready|applied|blocked|failed|superseded']
] as const

/** Adds list/wait's filter flags: one value each (repeating one keeps the last, as upstream). */
export function addFilterFlags(cmd: Command): Command {
  for (const [flag, , help] of FILTER_FLAGS) cmd.option(`--${flag} <value>`, `${help} (one value; a repeated flag keeps the last)`)
  return cmd
}

/** Adds watch's filter flags: repeatable, matching any of the values (upstream documents it for watch only). */
export function addWatchFilterFlags(cmd: Command): Command {
  for (const [flag, , help] of FILTER_FLAGS) cmd.option(`--${flag} <value>`, `${help} (repeatable; matches any)`, collect)
  return cmd
}

/** Snake-case filters from parsed flags (a value or, for watch, a list). */
export function filtersFrom(opts: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [flag, key] of FILTER_FLAGS) {
    const camel = flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())
    const v = opts[camel] as string | string[] | undefined
    if (v !== undefined && v.length) out[key] = v
  }
  return out
}
