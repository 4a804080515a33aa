/**
 * Which web permissions the window may have: only what the app uses, only for its own page.
 * Muster's renderer writes to the clipboard (the copy buttons, `navigator.clipboard.writeText`,
 * which Electron asks for as `clipboard-sanitized-write`) and nothing else: notifications come
 * from the main process, and there is no camera, microphone, location, MIDI, HID, serial, USB,
 * screen capture, full screen API, pointer lock, idle detection or file-system access to grant.
 * Everything else, and anything asked for by another origin or a sub-frame, is refused.
 */
import { isAppOrigin, type RendererTarget } from './app-url'

/** Permissions the app's own page is granted. */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

/** One permission request or check, as far as deciding it goes. */
export interface PermissionAsk {
  /** Electron's permission name (`media`, `notifications`, `clipboard-sanitized-write`, …). */
  permission: string
  /** URL (or origin, for checks) of the page that asks. */
  requestingUrl: string
  /** False for a sub-frame; the app has none, so they get nothing. */
  isMainFrame: boolean
}

/** True when the permission is granted: one the app uses, asked by the app's own page. */
export function isPermissionAllowed(target: RendererTarget, ask: PermissionAsk): boolean {
  if (!ALLOWED_PERMISSIONS.has(ask.permission) || !ask.isMainFrame) return false
  return isOwnOrigin(target, ask.requestingUrl)
}

/** True when `url` (a page URL or a bare origin) is on the origin the app's page is served from. */
function isOwnOrigin(target: RendererTarget, url: string): boolean {
  if (target.kind === 'app') return isAppOrigin(url)
  try {
    return new URL(url).origin === target.origin
  } catch {
    return false
  }
}
