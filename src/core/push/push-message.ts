/**
 * What a notification carries for one needs-you item: its kind and id, agent, project, the tool an
 * approval asks for and a short preview with hidden characters shown as escapes, and the screen to
 * open. Nothing else (no tool input, no paths, no hub location): the full request loads over TLS.
 */
import type { NeedItem } from '../../shared/contract/needs-types'
import type { PushMessage } from '../../shared/contract/push-types'
import { visibleTitle } from '../../shared/visible-text'

/** Most characters of a preview (a lock-screen line or two). */
export const PREVIEW_CHARS = 120

/** A named credential (`token=…`, `Authorization: Bearer …`, `--password x`): its value is masked. */
const NAMED_SECRET =
  /\b(authorization|bearer|token|secret|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret)(\s*[:=]\s*|\s+)(?:bearer\s+)?("[^"]*"|'[^']*'|\S+)/gi
/** A long opaque run (a key, a token, a hash): kept to its first 4 characters. */
const OPAQUE = /[A-Za-z0-9_+=-]{32,}/g

/**
 * A preview with what looks like a credential masked: a push service and a lock screen see it,
 * so a token in a command line (`curl -H "Authorization: Bearer …"`) must not travel in it.
 */
export function maskSecrets(text: string): string {
  return text.replace(NAMED_SECRET, (_m, name: string, sep: string) => `${name}${sep}…`).replace(OPAQUE, (run) => `${run.slice(0, 4)}…`)
}

/** The message for `item`; `tool` is the tool an approval asks for (null for other kinds). */
export function pushMessage(item: NeedItem, tool: string | null): PushMessage {
  const short = (s: string | null, max: number): string | null => (s === null ? null : visibleTitle(s, max))
  return {
    v: 1,
    kind: item.kind,
    id: item.ref.slice(0, 200),
    agent: short(item.agent, 80),
    project: short(item.project, 80),
    tool: short(tool, 80),
    preview: visibleTitle(maskSecrets(item.detail.replace(/\s+/g, ' ').trim() || item.title), PREVIEW_CHARS),
    link: item.link.slice(0, 500)
  }
}

/** Approvals first, then the longest waiting. */
export function pushOrder(items: readonly NeedItem[]): NeedItem[] {
  return [...items].sort((a, b) => Number(b.kind === 'approval') - Number(a.kind === 'approval') || a.since.localeCompare(b.since))
}
