/**
 * One Muster per user: a second start hands its `muster://` link (if any) to the first and
 * quits; the first comes to the front and opens the link. Links arrive three ways: the first
 * start's own argv, a second start's argv (Windows, Linux) and macOS's `open-url` event (which
 * may fire before the window exists: the link waits for it).
 */
import { resolve } from 'node:path'
import { DEEP_LINK_SCHEME, deepLinkFromArgv, parseDeepLink, type DeepLink } from '../shared/deep-link'

/** The part of Electron's `app` used here. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean
  quit(): void
  on(event: 'second-instance', listener: (event: unknown, argv: string[]) => void): unknown
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown
}

/** A window as far as bringing it forward goes (a `BrowserWindow` fits). */
export interface FocusableWindow {
  isMinimized(): boolean
  restore(): void
  show(): void
  focus(): void
  isDestroyed(): boolean
}

/** Brings a window to the front: restored if minimised, shown if hidden, focused. */
export function bringToFront(win: FocusableWindow | null | undefined): boolean {
  if (!win || win.isDestroyed()) return false
  if (win.isMinimized()) win.restore()
  win.show()
  win.focus()
  return true
}

/** Options for `claimSingleInstance`. */
export interface SingleInstanceOptions {
  app: SingleInstanceApp
  /** The first start's arguments (`process.argv`). */
  argv: readonly string[]
  /** Brings the main window forward, if there is one yet (false when not). */
  focus: () => boolean
  /** Opens a link in the main window, if there is one yet (false when not: the link is kept). */
  open: (link: DeepLink) => boolean
  log?: (message: string) => void
}

/** The first instance's side: links that wait for a window. */
export interface SingleInstance {
  /** Call once the main window can open links: opens the link that waited, if any. */
  windowReady(): void
}

/**
 * Takes the single-instance lock. Returns null when another Muster holds it (this one then
 * quits, having handed its argv over through Electron); else the first instance's handle.
 */
export function claimSingleInstance(opts: SingleInstanceOptions): SingleInstance | null {
  const { app } = opts
  const log = opts.log ?? ((m: string) => console.warn(`[muster] ${m}`))
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return null
  }
  let waiting: DeepLink | null = deepLinkFromArgv(opts.argv)
  const deliver = (link: DeepLink | null): void => {
    if (!link) {
      opts.focus()
      return
    }
    if (!opts.open(link)) waiting = link
  }
  app.on('second-instance', (_event, argv) => deliver(deepLinkFromArgv(argv)))
  app.on('open-url', (event, url) => {
    event.preventDefault()
    const link = parseDeepLink(url)
    if (!link) log(`ignored a link that is not a Muster item: ${url.slice(0, 200)}`)
    deliver(link)
  })
  return {
    windowReady() {
      const link = waiting
      waiting = null
      if (link && !opts.open(link)) waiting = link
    }
  }
}

/** What `app.setAsDefaultProtocolClient` needs to register this Muster as the `muster://` handler. */
export function protocolClientArgs(input: {
  defaultApp: boolean
  execPath: string
  argv: readonly string[]
}): [string, string?, string[]?] {
  // Run from source (`electron .`), Electron itself is the executable: pass it the app folder.
  if (input.defaultApp && input.argv[1]) return [DEEP_LINK_SCHEME, input.execPath, [resolve(input.argv[1])]]
  return [DEEP_LINK_SCHEME]
}
