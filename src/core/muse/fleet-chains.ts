/**
 * Invocation findings across the fleet: every role file of the given projects (directive bodies
 * live inside them) and hub event bodies, each finding with its source.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { Project } from '../../shared/api'
import type { ChainFinding, ChainSource } from '../../shared/contract/invoke'
import { listRoleFiles, museDir, roleName } from './role-files'
import { isCritic, scanText, isValidRole } from '../invoke'
/** The tags an event body must contain to be worth scanning (the hub filters by substring). */
export const TAG_MARKERS = ['[INVOKE', '[BROADCAST', '[BLOCKED', '[RESPONSE'] as const

const none: Omit<ChainSource, 'kind'> = { project: null, file: null, role: null, hub: null, eventId: null, from: null }

/** Findings in the role files of `projects`, and how many files were read. */
export async function roleFileFindings(projects: readonly Project[]): Promise<{ findings: ChainFinding[]; files: number }> {
  const findings: ChainFinding[] = []
  let files = 0
  for (const p of projects) {
    const names = await listRoleFiles(p.path).catch(() => [] as string[])
    for (const file of names) {
      const text = await fs.readFile(join(museDir(p.path), file), 'utf8').catch(() => null)
      if (text === null) continue
      files++
      const source: ChainSource = { ...none, kind: 'role', project: p.name, file, role: roleName(file) }
      for (const f of scanText(text)) findings.push({ ...f, source })
    }
  }
  return { findings, files }
}

/** An event body to scan. */
export interface TaggedEvent {
  id: string
  from_agent: string
  body: string
}

/** Findings in event bodies of one hub; a protocol role (or the critic) as sender is the caller. */
export function eventFindings(hub: string, events: readonly TaggedEvent[]): ChainFinding[] {
  return events.flatMap((e) => {
    const caller = isValidRole(e.from_agent) || isCritic(e.from_agent) ? e.from_agent : undefined
    const source: ChainSource = { ...none, kind: 'event', hub, eventId: e.id, from: e.from_agent }
    return scanText(e.body, { caller }).map((f) => ({ ...f, source }))
  })
}
