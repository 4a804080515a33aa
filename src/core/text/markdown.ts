/**
 * Text helpers shared by the role-file parser and the writers: line splitting that tolerates a
 * BOM and CRLF, header normalisation (VS16 stripped, spaces collapsed), fences, line offsets.
 */

/** Strips U+FE0F (emoji presentation selector) and collapses whitespace runs to one space. */
export function normalise(text: string): string {
  return text
    .replace(/\uFE0F/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Splits text into lines without `\r` and without a leading BOM (line 1 is `lines[0]`). */
export function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const lines = body.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!
    if (l.endsWith('\r')) lines[i] = l.slice(0, -1)
  }
  return lines
}

/** The line ending a file uses: CRLF when its first line break is CRLF, else LF. */
export function eolOf(text: string): '\r\n' | '\n' {
  const at = text.indexOf('\n')
  return at > 0 && text[at - 1] === '\r' ? '\r\n' : '\n'
}

/** Character offset (in `text`, BOM included) where 1-based line `n` starts; text length past the end. */
export function lineStart(text: string, n: number): number {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0
  for (let i = 1; i < n; i++) {
    const nl = text.indexOf('\n', pos)
    if (nl < 0) return text.length
    pos = nl + 1
  }
  return pos
}

/** Offset just after line `n` including its line break (or text end when it has none). */
export function lineEnd(text: string, n: number): number {
  const start = lineStart(text, n)
  const nl = text.indexOf('\n', start)
  return nl < 0 ? text.length : nl + 1
}

/** A markdown ATX header: level and raw title, or null (manual scan: no regex on long lines). */
export function parseHeader(line: string): { level: number; title: string } | null {
  let i = 0
  while (i < 3 && line[i] === ' ') i++
  let level = 0
  while (line[i + level] === '#') level++
  if (level === 0 || level > 6) return null
  const after = line[i + level]
  if (after !== undefined && after !== ' ' && after !== '\t') return null
  let title = line.slice(i + level).trim()
  // optional closing sequence: " ##"
  const m = / +#+$/.exec(title.length > 200 ? title.slice(-200) : title)
  if (m) title = title.slice(0, title.length - m[0].length).trim()
  else if (/^#+$/.test(title)) title = ''
  return { level, title }
}

/** Tracks fenced code blocks (``` or ~~~, closed by the same char at least as long). */
export class FenceTracker {
  private char = ''
  private len = 0

  /** True while inside a fenced block. */
  get open(): boolean {
    return this.char !== ''
  }

  /** Feeds one line; returns true when the line is a fence line or inside a fence. */
  feed(line: string): boolean {
    let i = 0
    while (i < 3 && line[i] === ' ') i++
    const c = line[i]
    if (c === '`' || c === '~') {
      let n = 0
      while (line[i + n] === c) n++
      if (n >= 3) {
        if (!this.char) {
          this.char = c
          this.len = n
          return true
        }
        if (c === this.char && n >= this.len && line.slice(i + n).trim() === '') {
          this.char = ''
          return true
        }
      }
    }
    return this.char !== ''
  }
}

/** True for a thematic break line (`---`, `***`, `___`). */
export function isRule(line: string): boolean {
  const t = line.trim()
  return t.length >= 3 && /^(?:-{3,}|\*{3,}|_{3,})$/.test(t)
}

/** The text inside the first `**bold**` span, else the line itself trimmed (blockquote marker removed). */
export function titleOf(line: string): string {
  const t = line.replace(/^\s*>\s?/, '').trim()
  const a = t.indexOf('**')
  if (a >= 0) {
    const b = t.indexOf('**', a + 2)
    if (b > a + 2) return t.slice(a + 2, b).trim()
  }
  return t.length > 160 ? t.slice(0, 159) + '…' : t
}
