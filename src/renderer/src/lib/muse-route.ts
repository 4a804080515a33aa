/**
 * Sub-routes of the MUSE area, all under the Directives sidebar entry:
 * `#/directives[?send=1]` (opens the send dialog), `#/role/<project>/<role>[?line=N]`, `#/memory[?q=…]`
 * and `#/chains` (invocation-chain findings).
 */
import { useSyncExternalStore } from 'react'

/** Where the MUSE area is. */
export type MuseRoute =
  | { kind: 'directives'; send: boolean }
  | { kind: 'role'; project: string; role: string; line: number | null }
  | { kind: 'memory'; query: string }
  | { kind: 'chains' }

/** Parses a location hash into a MUSE route (directives when it is none of the others). */
export function museRouteFromHash(hash: string): MuseRoute {
  const raw = hash.replace(/^#\/?/, '')
  const [path = '', search = ''] = raw.split('?', 2)
  const parts = path.split('/').map(safeDecode)
  const params = new URLSearchParams(search)
  if (parts[0] === 'role' && parts[1] && parts[2]) {
    const line = Number(params.get('line'))
    return { kind: 'role', project: parts[1], role: parts[2], line: Number.isInteger(line) && line > 0 ? line : null }
  }
  if (parts[0] === 'memory') return { kind: 'memory', query: params.get('q') ?? '' }
  if (parts[0] === 'chains') return { kind: 'chains' }
  return { kind: 'directives', send: params.get('send') === '1' }
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/** The hash of a role file, optionally at a line: `#/role/muse/build?line=42`. */
export function roleHref(project: string, role: string, line?: number | null): string {
  return `#/role/${encodeURIComponent(project)}/${encodeURIComponent(role)}${line ? `?line=${line}` : ''}`
}

/** The hash of the memory search, optionally with a query. */
export function memoryHref(query?: string): string {
  return query ? `#/memory?q=${encodeURIComponent(query)}` : '#/memory'
}

/** Navigates to a hash (the shell's hashchange listener updates the sidebar). */
export function goTo(hash: string): void {
  if (window.location.hash !== hash) window.location.hash = hash
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange)
  return () => window.removeEventListener('hashchange', onChange)
}

/** The current location hash, re-rendering on change. */
export function useHash(): string {
  return useSyncExternalStore(subscribe, () => window.location.hash)
}
