/**
 * "Needs attention" for the overview: directives still pending for each role (by their resolved
 * target) and for each project (including ALL-targeted ones), from the cross-project directive index.
 */
import { useMemo } from 'react'
import type { Directive } from '../../../../shared/api'
import { useDirectives, useLint } from '../../api/queries'
import type { CardFinding } from './findings-list'

/** Pending directive ids per `project/role` and per project. */
export interface Attention {
  byRole: Map<string, string[]>
  byProject: Map<string, string[]>
}

/** Key of a role in `Attention.byRole`. */
export const roleKey = (project: string, role: string): string => `${project}/${role.toLowerCase()}`

/** Groups pending directives by the role and project they wait on. */
export function attentionOf(directives: readonly Directive[], projects: readonly string[]): Attention {
  const byRole = new Map<string, string[]>()
  const byProject = new Map<string, string[]>()
  const add = (map: Map<string, string[]>, key: string, id: string): void => {
    const list = map.get(key) ?? []
    if (!list.includes(id)) list.push(id)
    map.set(key, list)
  }
  for (const d of directives) {
    if (d.state !== 'pending') continue
    if (d.resolution.kind === 'role') {
      add(byRole, roleKey(d.resolution.project, d.resolution.role), d.id)
      add(byProject, d.resolution.project, d.id)
    } else if (d.resolution.kind === 'all') {
      for (const p of projects) add(byProject, p, d.id)
    }
  }
  return { byRole, byProject }
}

/** The overview's attention map (empty while the directive index loads or fails). */
export function useAttention(projects: readonly string[]): Attention {
  const query = useDirectives()
  const key = projects.join('\n')
  return useMemo(() => attentionOf(query.data?.directives ?? [], key ? key.split('\n') : []), [query.data, key])
}

/** Lint checks the overview's own findings do not cover (they need the whole fleet or git). */
const CROSS_FILE = new Set([
  'l0-stale',
  'unresolved-target',
  'duplicate-pending',
  'after-footer',
  'paths-malformed',
  'symlink-outside',
  'leftover-write'
])

/** Those lint findings per project, for the project cards. */
export function useCrossFileLint(): Map<string, CardFinding[]> {
  const lint = useLint()
  return useMemo(() => {
    const out = new Map<string, CardFinding[]>()
    for (const f of lint.data?.findings ?? []) {
      if (!CROSS_FILE.has(f.code) || !f.project) continue
      const list = out.get(f.project) ?? []
      list.push({ level: f.level, role: f.role, message: f.message, line: f.line })
      out.set(f.project, list)
    }
    return out
  }, [lint.data])
}
