/**
 * The command line cannot confirm presence itself: a change or an allow that needs it is handed to
 * an enrolled authenticator through this home's running `muster serve` (a phone, a security key,
 * Touch ID / Windows Hello in the browser). This prints the page to open (and its QR code, for a
 * phone), then waits until the change shows, and says what happened. Without a running serve it
 * says how to get one; it never approves on its own.
 */
import QRCode from 'qrcode'
import { CliError, type CliIo } from './output'
import { runningServe } from './serve-beacon'

/** What to hand over: the page (a hash route of the dashboard), what it is, and how to tell it is done. */
export interface Handoff {
  /** `#/approvals?...`, `#/settings?...`. */
  route: string
  /** "This allow", "Enrolling an authenticator" (the start of a sentence). */
  what: string
  /** Resolves with a line once done (null: not yet); polled about once a second. */
  done(): Promise<string | null>
  /** Give up after this long (the request's own timeout, say). */
  timeoutMs: number
}

/** Hands a change to the authenticator (see the file comment); resolves with the line `done` gave. */
export async function handToAuthenticator(io: CliIo, home: string, h: Handoff): Promise<string> {
  const base = runningServe(home)
  if (!base)
    throw new CliError(
      `${h.what} needs your presence, and the command line cannot confirm it: start muster serve (or open the desktop app) for this home and run this again`
    )
  const url = `${base}/${h.route}`
  let qr = ''
  try {
    qr = await QRCode.toString(url, { type: 'utf8', errorCorrectionLevel: 'L', margin: 1 })
  } catch {
    // a URL too long for a code: the link is enough
  }
  io.stderr(
    `${h.what} needs your presence: confirm it with an enrolled authenticator (phone, security key, Touch ID / Windows Hello) at\n\n  ${url}\n\n${qr}waiting… (Ctrl+C stops waiting; the page still works)\n`
  )
  const deadline = Date.now() + h.timeoutMs
  for (;;) {
    const line = await h.done()
    if (line !== null) return line
    if (Date.now() > deadline) throw new CliError(`${h.what} was not confirmed in time; nothing was changed`)
    await new Promise((r) => setTimeout(r, 1000))
  }
}
