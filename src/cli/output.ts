/**
 * Printing for the CLI: JSON or human text, terminal-width-aware padding (CJK and emoji take two
 * columns), and the one-line error convention (`{"error": ...}` with --json).
 */
import { writeDirect } from './direct-write'
import { visible } from '../shared/visible-text'
import { relativeTime } from '../shared/relative-time'

/** Where a command writes; injectable so tests run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: NodeJS.ProcessEnv
  cwd: string
  /** Everything on stdin, as bytes (`--body-file -`); default: the process's stdin. */
  readStdin?: () => Promise<Uint8Array>
}

/** The process's own streams. */
export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    readStdin: readProcessStdin
  }
}

/**
 * The process's streams, stdout written with blocking `write`s to its descriptor: for a one-shot
 * command that prints once (`muster status` from a hook), without setting up the stdout stream
 * (~5 ms). A pipe a parent left non-blocking is waited on; a reader gone (EPIPE) ends the output.
 */
export function directStdoutIo(): CliIo {
  return { ...processIo(), stdout: (t) => void writeDirect(1, t) }
}

/**
 * stdout and stderr both written with blocking `write`s (see directStdoutIo): a one-shot command
 * that uses this io sets up neither stream, so its process may exit as soon as it has answered.
 */
export function directIo(): CliIo {
  return { ...processIo(), stdout: (t) => void writeDirect(1, t), stderr: (t) => void writeDirect(2, t) }
}

/**
 * Writes `text` to the process's stdout with blocking `write`s to its descriptor (no stream set
 * up); false when nobody reads it any more (EPIPE).
 */
export function writeStdout(text: string): boolean {
  return writeDirect(1, text)
}

/** Reads the process's stdin to its end, as bytes. */
export async function readProcessStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** An error meant for the user: printed as one line, exit code 1 (or `exitCode`). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1
  ) {
    super(message)
    this.name = 'CliError'
  }
}

/** Ends a command with an exit code and no error message (watch/wait timeouts, interrupts). */
export class CliExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`)
    this.name = 'CliExit'
  }
}

/** Prints a value as pretty JSON followed by a newline. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2) + '\n')
}

/**
 * Upstream's error document, `json.dumps({"error": message})`: `": "` after the key and DEL and every
 * non-ASCII UTF-16 unit as a lowercase `\uXXXX` (JSON.stringify already escapes controls and
 * lone surrogates as Python does). Here, not in upstream-output, to keep the entry light.
 */
export function upstreamErrorJson(message: string): string {
  return `{"error": ${asciiJson(JSON.stringify(message))}}\n`
}

/** JSON text with DEL and every UTF-16 unit past ASCII written as a lowercase `\uXXXX` escape: the same value, one byte per character. */
export function asciiJson(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

/** Text that is one column per character (the common case, answered without a per-character loop). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/** Display width of a string in a terminal (wide CJK/emoji count 2, combining marks 0). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length
  let w = 0
  // an index loop (not for..of): `muster status` measures thousands of cells in cold code
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i)
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1)
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00)
        i++
      }
    }
    if (cp === 0xfe0f || cp === 0x200d || (cp >= 0x300 && cp <= 0x36f)) continue
    w += isWide(cp) ? 2 : 1
  }
  return w
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x2600 && cp <= 0x27bf && cp !== 0x2192) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
}

/** Cuts text to at most `width` columns, ending with an ellipsis when cut. */
export function truncate(raw: string, width: number): string {
  const text = visible(raw)
  if (displayWidth(text) <= width) return text
  let out = ''
  let w = 0
  for (const ch of text) {
    const cw = displayWidth(ch)
    if (w + cw > width - 1) break
    out += ch
    w += cw
  }
  return out + '…'
}

/** Pads text with spaces to `width` columns. */
export function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)))
}

/** Renders rows as aligned columns (the last column is not padded). */
export function table(raw: string[][]): string {
  // cells hold what agents wrote: control, escape, bidi and zero-width characters shown escaped
  const rows = raw.map((r) => r.map((c) => visible(c)))
  const widths: number[] = []
  const cells = rows.map((r) =>
    r.map((c, i) => {
      const w = displayWidth(c)
      widths[i] = Math.max(widths[i] ?? 0, w)
      return w
    })
  )
  return (
    rows
      .map((r, j) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i]! - cells[j]![i]!)))
          .join('  ')
          .trimEnd()
      )
      .join('\n') + '\n'
  )
}

/** How long ago `iso` was, as the screens say it (shared/relative-time.ts); `never` for none. */
export function age(iso: string | null, now = Date.now()): string {
  return iso ? relativeTime(iso, now) : 'never'
}

/** `n` and the word, plural past one: `count(1, 'note')` is "1 note", `count(2, 'note')` "2 notes". */
export function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** Lines of an error kept after its first (a hint, the cause): more is noise, not help. */
const MORE_LINES = 8

/**
 * An error's text for `fail`: its message, then `cause: …` for each cause (`new Error(m, { cause })`)
 * the message does not already include, so "what to run" and "why" both reach the operator. An
 * error marked `causeShown` has said it in its own words already.
 */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  let text = err.message
  if ((err as { causeShown?: boolean }).causeShown) return text
  let cause: unknown = err.cause
  for (let depth = 0; cause instanceof Error && depth < 3; depth++, cause = cause.cause) {
    const first = cause.message.split('\n')[0]!.trim()
    if (first && !text.includes(first)) text += `\ncause: ${first}`
  }
  return text
}

/**
 * An error: its first line on stderr (`muster: …`), then its hint and cause lines indented, or
 * `{"error": ..., "detail": [...]}` on stdout with --json. The commands twinning `mempalace` ones
 * print the first line as upstream's `_logstream_fail` does (cli/cmd_coord.py): Python's
 * `json.dumps({"error": msg})`, or `Error: <msg>` on stderr.
 */
export function fail(io: CliIo, json: boolean, message: string, code: number, upstream = false): number {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  const line = lines[0] ?? ''
  const more = upstream ? [] : lines.slice(1, 1 + MORE_LINES).map((l) => (l.length > 300 ? `${l.slice(0, 299)}…` : l))
  if (json)
    io.stdout(upstream ? upstreamErrorJson(line) : JSON.stringify(more.length ? { error: line, detail: more } : { error: line }) + '\n')
  else io.stderr(upstream ? `Error: ${line}\n` : `muster: ${line}\n${more.map((l) => `  ${l}\n`).join('')}`)
  return code
}
