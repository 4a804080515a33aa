/**
 * Finds the hub project: the holder of the global `strategy.md` that bare `ROLE` targets address
 * (spec section 1). In order: the operator's mark (settings key `muse.hub`), a `STRATEGY_PATH:`
 * in any `.muse/paths.md` fence, a `.../.muse/strategy.md` path in any `CLAUDE.md`, the only
 * project holding `.muse/strategy.md`, the only registered project.
 */
import { constants as fsConstants, promises as fs } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { MuseHub, Project } from '../../shared/api'
import { FenceTracker, splitLines } from '../text'
import type { MuseListing } from './role-files'

/** Settings key holding the operator's choice (JSON string or null). */
export const HUB_SETTING = 'muse.hub'

/** The operator's marked hub project name from the value stored under `HUB_SETTING`, or null. */
export function asMarkedHub(stored: unknown): string | null {
  return typeof stored === 'string' ? stored : null
}

/** `KEY: value` lines inside the fences of a `paths.md`, and the lines that are neither. */
export function parsePathsConfig(text: string): { entries: Record<string, string>; malformed: number[] } {
  const entries: Record<string, string> = {}
  const malformed: number[] = []
  const fence = new FenceTracker()
  const lines = splitLines(text)
  lines.forEach((line, i) => {
    const inside = fence.feed(line)
    if (!inside || /^\s*(```|~~~)/.test(line) || line.trim() === '') return
    const m = /^\s*([A-Za-z][A-Za-z0-9_]*)\s*:\s*(.+?)\s*$/.exec(line)
    if (m) entries[m[1]!.toUpperCase()] = m[2]!
    else malformed.push(i + 1)
  })
  return { entries, malformed }
}

/** Absolute `.../.muse/strategy.md` paths mentioned in a CLAUDE.md. */
export function strategyPathsIn(text: string): string[] {
  const out: string[] = []
  const re = /(\/[^\s`'"<>()]*?\/\.muse\/strategy\.md)/g
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1]!)
  return out
}

async function readText(path: string): Promise<string | null> {
  try {
    return await fs.readFile(path, 'utf8')
  } catch {
    return null
  }
}

/** True when `path` is a file that can be opened for reading (what reading it would need), without reading it. */
async function isReadableFile(path: string): Promise<boolean> {
  try {
    const handle = await fs.open(path, 'r')
    try {
      return (await handle.stat()).isFile()
    } finally {
      await handle.close()
    }
  } catch {
    return false
  }
}

/** True when `path` may be opened for reading (one `access` call). */
function canRead(path: string): Promise<boolean> {
  return fs.access(path, fsConstants.R_OK).then(
    () => true,
    () => false
  )
}

async function real(path: string): Promise<string> {
  try {
    return await fs.realpath(path)
  } catch {
    return resolve(path)
  }
}

/** The registered project owning a `<root>/.muse/strategy.md` path, or null. */
async function ownerOf(strategyPath: string, projects: Project[]): Promise<Project | null> {
  const root = await real(dirname(dirname(strategyPath)))
  for (const p of projects) if ((await real(p.path)) === root) return p
  return null
}

/**
 * Detects the hub project among `projects`. `listings` (a scan's listings of each project's
 * `.muse/`, null: no folder) spare asking for the `.muse/` files they show absent: a fleet scan
 * would otherwise wait for hundreds of failed opens.
 */
export async function detectHub(projects: Project[], marked: string | null, listings?: readonly (MuseListing | null)[]): Promise<MuseHub> {
  if (marked) {
    const p = projects.find((x) => x.name.toLowerCase() === marked.toLowerCase())
    if (p) return { project: p.name, source: 'operator' }
  }
  const listed = (i: number, has: (l: MuseListing) => boolean): boolean => {
    const l = listings?.[i]
    return l === undefined || (l !== null && has(l))
  }
  // every file is asked for at once (a large fleet would otherwise wait for hundreds of reads in
  // turn); they are then weighed in the same order as before
  const [pathsFiles, claudeFiles, strategies] = await Promise.all([
    Promise.all(
      projects.map((p, i) => (listed(i, (l) => l.config.includes('paths.md')) ? readText(join(p.path, '.muse', 'paths.md')) : null))
    ),
    Promise.all(projects.map((p) => readText(join(p.path, 'CLAUDE.md')))),
    Promise.all(
      projects.map((p, i) => {
        const path = join(p.path, '.muse', 'strategy.md')
        // a listed role file is a file (or a link to one): only whether it can be read is asked
        if (!listings) return isReadableFile(path)
        return listed(i, (l) => l.files.includes('strategy.md')) && canRead(path)
      })
    )
  ])
  for (const text of pathsFiles) {
    const path = text ? parsePathsConfig(text).entries.STRATEGY_PATH : undefined
    const owner = path ? await ownerOf(path, projects) : null
    if (owner) return { project: owner.name, source: 'paths.md' }
  }
  for (const text of claudeFiles) {
    for (const path of text ? strategyPathsIn(text) : []) {
      const owner = await ownerOf(path, projects)
      if (owner) return { project: owner.name, source: 'CLAUDE.md' }
    }
  }
  const holders = projects.filter((_, i) => strategies[i])
  if (holders.length === 1) return { project: holders[0]!.name, source: 'strategy.md' }
  if (projects.length === 1) return { project: projects[0]!.name, source: 'only-project' }
  return { project: null, source: 'none' }
}
