/**
 * The app's addresses (location hashes) for the things an operator acts on: an approval, a patch,
 * an event or a thread in the Timeline, a directive, a role file. One place, so the needs-you
 * queue (core), notifications, deep links and every screen link the same way. Plain strings, no DOM.
 */

const withQuery = (path: string, params: Record<string, string | null | undefined>): string => {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v)
  const s = q.toString()
  return s ? `${path}?${s}` : path
}

/** A pending approval request on the Approvals screen (`id`: its event id). */
export function approvalLink(hub: string | null, id: string): string {
  return withQuery('#/approvals', { hub, id })
}

/** One patch on the Patches screen (`id`: its `patch.ready` event id). */
export function patchLink(hub: string | null, id: string): string {
  return withQuery('#/patches', { hub, id })
}

/** A thread in the Timeline: its events, oldest first, with the thread pane open. */
export function threadLink(hub: string | null, correlationId: string): string {
  return withQuery('#/timeline', { correlation_id: correlationId, order: 'asc', hub, thread: correlationId })
}

/** One event in the Timeline, its detail open (`filters`: the list it is shown in). */
export function eventLink(hub: string | null, id: string, filters: Record<string, string> = {}): string {
  return withQuery('#/timeline', { ...filters, hub, event: id })
}

/** A directive on the Directives screen (`id`: S044; `key`: the directive's key when known). */
export function directiveLink(id: string, key?: string | null): string {
  return withQuery('#/directives', { id, key })
}

/** The Usage screen, a budget's row selected when given. */
export function usageLink(budgetId?: number | null): string {
  return withQuery('#/usage', { budget: budgetId ? String(budgetId) : null })
}

/** A role file, optionally at a line. */
export function roleLink(project: string, role: string, line?: number | null): string {
  return `#/role/${encodeURIComponent(project)}/${encodeURIComponent(role)}${line ? `?line=${line}` : ''}`
}

/** The parameters of a hash (`#/x?a=1` → a=1). */
export function hashParams(hash: string): URLSearchParams {
  const q = hash.indexOf('?')
  return new URLSearchParams(q < 0 ? '' : hash.slice(q + 1))
}
