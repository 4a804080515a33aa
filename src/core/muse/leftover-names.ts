/**
 * Telling Muster's working files (write-leftovers.ts) by name, and whether the process that left
 * one still runs. Apart from write-leftovers.ts, which makes and cleans them, so that listing a
 * folder (`muster status` on every tool call of every agent) loads nothing more.
 */

import { processAlive } from '../process-alive'

const NAME = /^\.(.+)\.muster-(aside-|lost-)?(\d+)-[0-9a-f]+(\.tmp)?$/

/** A leftover working file of some Muster process. */
export interface Leftover {
  /** The leftover's own name in the folder. */
  name: string
  /** The file it belongs to (`build.md`). */
  file: string
  /** `lost`: a version holding an edit another writer dropped (reported whether its process runs or not). */
  kind: 'tmp' | 'aside' | 'lost'
  pid: number
}

/** Parses a folder entry name; null when it is not a Muster working file. */
export function parseLeftover(name: string): Leftover | null {
  const m = NAME.exec(name)
  if (!m || !!m[2] === !!m[4]) return null
  return { name, file: m[1]!, kind: m[2] === 'lost-' ? 'lost' : m[2] ? 'aside' : 'tmp', pid: Number(m[3]) }
}

/** The leftovers of dead processes, and lost edits, among the entry names of a folder (of `file` only, when given). */
export function deadAmong(names: readonly string[], file?: string): Leftover[] {
  const out: Leftover[] = []
  for (const n of names) {
    if (!n.startsWith(file ? `.${file}.muster-` : '.') || !n.includes('.muster-')) continue
    const l = parseLeftover(n)
    if (l && (!file || l.file === file) && (l.kind === 'lost' || !processAlive(l.pid))) out.push(l)
  }
  return out
}
