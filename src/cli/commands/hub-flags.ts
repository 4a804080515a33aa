/**
 * Flag definitions shared by the hub commands (`events`, `thread`, `task`): repeatable filter
 * flags and integer parsing. Light on purpose: loaded for every `muster` run (see `../lazy.ts`).
 */
import type { Command } from 'commander'

/** Commander collector for repeatable flags. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

/** Parses a non-negative integer flag. */
export function intFlag(name: string): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v.trim())) throw new Error(`${name} must be a non-negative integer, got '${v}'`)
    return Number(v)
  }
}

/** The repeatable filter flags of list/wait/watch (values of one flag OR together). */
export const FILTER_FLAGS = [
  ['stream', 'stream'], ['room', 'room'], ['topic', 'topic'], ['type', 'type'], ['to-agent', 'to_agent'],
  ['from-agent', 'from_agent'], ['correlation-id', 'correlation_id'], ['status', 'status']
] as const

/** Adds the filter flags to a command. */
export function addFilterFlags(cmd: Command): Command {
  for (const [flag] of FILTER_FLAGS) cmd.option(`--${flag} <value>`, `filter by ${flag.replace('-', ' ')} (repeat = OR)`, collect)
  return cmd
}

/** Snake-case filters from parsed flags. */
export function filtersFrom(opts: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [flag, key] of FILTER_FLAGS) {
    const camel = flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())
    const v = opts[camel] as string[] | undefined
    if (v?.length) out[key] = v
  }
  return out
}
