/**
 * `muster://` deep links: a link in a chat, a terminal or a notification that opens one item in
 * the app. Three forms, the hub optional (the default hub when absent):
 *
 *   muster://approval/<correlation id>[?hub=<hub name>]   the Approvals screen on that request
 *   muster://patch/<patch.ready event id>[?hub=<hub name>] the Patches screen on that patch
 *   muster://thread/<correlation id>[?hub=<hub name>]     the Timeline filtered to that thread
 *
 * A link comes from outside the app, so it is parsed strictly (one known kind, one id, nothing
 * else) and only ever turned into one of the app's own hash routes.
 */
import { approvalLink, patchLink, threadLink } from './links'

/** The scheme the app registers as the OS handler of. */
export const DEEP_LINK_SCHEME = 'muster'

/** What a link can open. */
export const DEEP_LINK_KINDS = ['approval', 'patch', 'thread'] as const

/** One kind of link target. */
export type DeepLinkKind = (typeof DEEP_LINK_KINDS)[number]

/** A parsed link: what to open, in which hub (null: the default one). */
export interface DeepLink {
  kind: DeepLinkKind
  id: string
  hub: string | null
}

/** Longest link accepted; ids and hub names are far shorter. */
const MAX_LINK = 1024
const MAX_ID = 200
const MAX_HUB = 200

/** True for text with no control characters (C0, DEL, C1) and no line/paragraph separators. */
function isPrintable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) return false
  }
  return true
}

/** Parses a `muster://` link; null for anything that is not exactly one of the three forms. */
export function parseDeepLink(raw: unknown): DeepLink | null {
  if (typeof raw !== 'string' || raw.length > MAX_LINK) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return null
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:` || url.username || url.password || url.port) return null
  const kind = url.hostname.toLowerCase()
  if (!(DEEP_LINK_KINDS as readonly string[]).includes(kind)) return null
  const segments = url.pathname.split('/').filter((s) => s !== '')
  if (segments.length !== 1) return null
  let id: string
  try {
    id = decodeURIComponent(segments[0]!)
  } catch {
    return null
  }
  id = id.trim()
  if (!id || id.length > MAX_ID || !isPrintable(id)) return null
  for (const key of url.searchParams.keys()) if (key !== 'hub') return null
  const hubs = url.searchParams.getAll('hub')
  if (hubs.length > 1) return null
  const hub = hubs[0]?.trim() || null
  if (hub !== null && (hub.length > MAX_HUB || !isPrintable(hub))) return null
  return { kind: kind as DeepLinkKind, id, hub }
}

/** The link for an item (what notifications and the tray use to open it). */
export function deepLinkUrl(link: DeepLink): string {
  const base = `${DEEP_LINK_SCHEME}://${link.kind}/${encodeURIComponent(link.id)}`
  return link.hub ? `${base}?${new URLSearchParams({ hub: link.hub }).toString()}` : base
}

/** The app's hash route that shows the link's item: the same address every screen links to (`links.ts`). */
export function deepLinkHash(link: DeepLink): string {
  switch (link.kind) {
    case 'approval':
      return approvalLink(link.hub, link.id)
    case 'patch':
      return patchLink(link.hub, link.id)
    case 'thread':
      return threadLink(link.hub, link.id)
  }
}

/** The first `muster://` link among command-line arguments (how Windows and Linux hand one over). */
export function deepLinkFromArgv(argv: readonly string[]): DeepLink | null {
  for (const arg of argv) {
    if (typeof arg === 'string' && arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}://`)) {
      const link = parseDeepLink(arg)
      if (link) return link
    }
  }
  return null
}
