/**
 * The Content-Security-Policy of Muster's UI, once for every way it is delivered: the desktop
 * app's `app://` responses (`src/main/app-protocol.ts`), `muster serve`'s pages
 * (`src/server/http-server.ts`) and the `<meta>` tag of the built `index.html`
 * (`electron.vite.config.ts`).
 *
 * No `'unsafe-inline'` anywhere: scripts and styles come from the app's own files. React's
 * `style` prop sets CSSOM properties, which CSP does not govern; a library that injects a
 * `<style>` element is pointed at a CSSOM stylesheet instead (`renderer/src/lib/style-singleton.ts`).
 */

/** Each directive and its sources, in the order they are written. */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  // the installed app's service worker and manifest (`muster serve`), from the app's own origin
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"]
}

/** Directives a `<meta>` policy may not carry (browsers ignore them there and log an error). */
const HEADER_ONLY = new Set(['frame-ancestors', 'report-uri', 'sandbox'])

/** Writes directives as a policy string. */
export function cspString(directives: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ')
}

/** The policy sent as a response header. */
export const APP_CSP = cspString(CSP_DIRECTIVES)

/** The same policy for the `<meta http-equiv>` tag: without the directives a meta tag cannot carry. */
export const META_CSP = cspString(Object.fromEntries(Object.entries(CSP_DIRECTIVES).filter(([name]) => !HEADER_ONLY.has(name))))

/** Parses a policy into its directives (names lower-cased; later duplicates ignored, as browsers do). */
export function parseCsp(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (!name) continue
    const key = name.toLowerCase()
    if (!out.has(key)) out.set(key, sources)
  }
  return out
}
