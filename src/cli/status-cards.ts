/**
 * What `muster status` can answer from its snapshot (status-snapshot.ts) and how it prints cards.
 * Light on purpose: the status entry (status-main.ts) loads this and nothing of the full read.
 */
import type { Project, ProjectStatus } from '../shared/api'
import type { NeedsSummary } from '../shared/needs-summary'
import { stampsHold, dbStampsSettledAt, sameDbStamps, stateDbStampsNow } from '../core/fleet'
import { openRoot } from '../core/root'
import { age, printJson, table, truncate, type CliIo } from './output'
import { StatusSnapshot, type SnapshotCard } from './status-snapshot'

/** What `muster status` is asked. */
export interface StatusOptions {
  /** Only this project. */
  project?: string | undefined
  /** Print the `--json` document. */
  json: boolean
}

/** A project's card: kept in the snapshot, or read now. */
export type Card = SnapshotCard | ProjectStatus

/** The snapshot's answer: the projects asked for and their kept cards (null: none kept as the project is now). */
export interface SnapshotLookup {
  snapshot: StatusSnapshot
  projects: Project[]
  cards: (SnapshotCard | null)[]
  /** When the lookup began (ms since the epoch): cards read after it are kept only if settled by then. */
  startedAt: number
}

/** Looks the asked projects up in the snapshot of `home`; null when there is no state DB or no such project (the full read creates the DB or reports the name). */
export function lookUpSnapshot(home: string, opts: StatusOptions): SnapshotLookup | null {
  const startedAt = Date.now()
  const snapshot = StatusSnapshot.read(home, opts.json)
  const registry = registeredProjects(home, snapshot, startedAt)
  const projects = registry && opts.project !== undefined ? registry.filter((p) => sameName(p.name, opts.project!)) : registry
  if (projects === null || (opts.project !== undefined && projects.length === 0)) return null
  const cards = projects.map((p) => {
    const card = snapshot.card(p)
    return card && stampsHold(p.path, card.stamps) ? card : null
  })
  return { snapshot, projects, cards, startedAt }
}

/**
 * The registered projects: the snapshot's while the state DB's files are unchanged since it was
 * read, else read from the DB (and kept in the snapshot when the DB did not move meanwhile and is
 * settled); null when there is no state DB.
 */
function registeredProjects(home: string, snapshot: StatusSnapshot, startedAt: number): Project[] | null {
  const before = stateDbStampsNow(home)
  const kept = before && snapshot.registry(before)
  if (kept) return kept
  const projects = readProjects(home)
  const after = stateDbStampsNow(home)
  if (projects && before && after && sameDbStamps(before, after) && dbStampsSettledAt(before, startedAt))
    snapshot.keepRegistry(projects, before)
  return projects
}

/** The registry's projects, from the state DB opened read-only through the root; null when there is none or it cannot be read. */
function readProjects(home: string): Project[] | null {
  const root = openRoot({ home, state: 'read-only' })
  try {
    return root.get('projects').list()
  } catch {
    return null
  } finally {
    void root.close()
  }
}

/** Project names compare as the registry does (`COLLATE NOCASE`: ASCII letters fold). */
function sameName(a: string, b: string): boolean {
  const fold = (s: string): string => s.trim().replace(/[A-Z]/g, (c) => c.toLowerCase())
  return fold(a) === fold(b)
}

/**
 * Prints cards as `muster status` does (`json`: the `--json` document, which carries `needs`, the
 * needs-you summary or null, when given: the whole-fleet answer).
 */
export function printCards(io: CliIo, cards: Card[], json: boolean, needs?: NeedsSummary | null): void {
  if (json) {
    const projects = cards.map((c) => ('json' in c ? (JSON.parse(c.json()) as ProjectStatus) : c))
    return printJson(io, needs === undefined ? { projects, count: cards.length } : { projects, count: cards.length, needs })
  }
  if (cards.length === 0) return io.stdout('no projects registered (try: muster projects scan DIR, or muster demo)\n')
  io.stdout(
    cards.map((c) => ('json' in c ? renderHead(c.project, c.stamps.roles.length, c.lastChangeAt) + c.body : renderProject(c))).join('\n')
  )
}

/** Human rendering of one project's status. */
export function renderProject(p: ProjectStatus): string {
  return p.exists
    ? renderHead(p, p.roles.length, p.lastChangeAt) + renderBody(p)
    : `${p.name} (${p.key})  ${p.path}  MISSING\n` + renderBody(p)
}

/** The heading line of a project's card (the age of its last change is computed now). */
function renderHead(p: Project, roleCount: number, lastChangeAt: string | null): string {
  return `${p.name} (${p.key})  ${p.path}  ${roleCount} roles, last change ${age(lastChangeAt)}\n`
}

/** The lines under a card's heading: one per role, then the findings. */
export function renderBody(p: ProjectStatus): string {
  const rows = p.roles.map((r) => {
    if (r.error) return [`  ${r.role}`, '', r.error, '', '']
    const lines = `${r.lines} lines${r.sizeLevel === 'ok' ? '' : r.sizeLevel === 'warning' ? ' (>500)' : ' (>800!)'}`
    if (!r.l0) return [`  ${r.role}`, '—', 'no L0', '', lines]
    const flags = r.l0.flags.length ? truncate(r.l0.flags.join(', '), 48) : ''
    return [`  ${r.role}`, r.l0.version ?? '—', truncate(r.l0.topPriority ?? '', 40), flags, lines]
  })
  const findings = p.findings.map((f) => `  ${f.level === 'error' ? '✗' : '!'} ${f.role ? f.role + ': ' : ''}${f.message}\n`).join('')
  return (rows.length ? table(rows) : '') + findings
}
