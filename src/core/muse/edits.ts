/**
 * Pure text edits used by pickup and send: insert a block of lines after a line, find where a
 * section's content ends, flip a directive's 🟡 to ✅, and local-time stamps. Every edit keeps
 * the file's line endings and the presence or absence of its final newline.
 */
import type { RoleSection } from '../../shared/api'
import type { ParsedRole } from './parse-role'
import { eolOf, isRule, lineEnd, lineStart, splitLines } from '../text'

const pad = (n: number) => String(n).padStart(2, '0')

/** Local `YYYY-MM-DD`. */
export function ymd(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** Local `HH:MM`. */
export function hm(d: Date): string {
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** Local `YYYY-MM-DD HH:MM`. */
export function ymdhm(d: Date): string {
  return `${ymd(d)} ${hm(d)}`
}

/**
 * Inserts `block` as new lines after 1-based line `after` (0 = before line 1), with a blank line
 * before it and, when the next line is not blank, a blank line after it.
 */
export function insertBlockAfter(text: string, after: number, block: string[]): string {
  const eol = eolOf(text)
  const lines = splitLines(text)
  const next = lines[after]
  const body = [...(after > 0 ? [''] : []), ...block, ...(next !== undefined && next.trim() !== '' ? [''] : [])]
  if (after === 0) {
    const at = lineStart(text, 1)
    return text.slice(0, at) + body.map((l) => l + eol).join('') + text.slice(at)
  }
  const end = lineEnd(text, after)
  if (text[end - 1] === '\n') return text.slice(0, end) + body.map((l) => l + eol).join('') + text.slice(end)
  // `after` is the last line and has no line break: keep the file without a final newline
  return text.slice(0, end) + eol + body.join(eol) + text.slice(end)
}

/** Last line of a section that has content (skipping trailing blank lines and `---` rules). */
export function lastContentLine(lines: string[], from: number, to: number): number {
  let n = to
  while (n > from && (lines[n - 1]!.trim() === '' || isRule(lines[n - 1]!))) n--
  return n
}

/**
 * Line after which new content goes: the end of a section's own content (before its first ordinary
 * sub-header), or the end of the file before a closing footer when there is no section.
 */
export function appendPoint(parsed: ParsedRole, lines: string[], section: RoleSection | undefined): number {
  const footerRule = parsed.footer?.closing ? parsed.footer.ruleLine : null
  if (section) {
    let end = section.endLine
    if (footerRule && footerRule > section.line && footerRule <= end) end = footerRule - 1
    // stop before the first ordinary sub-header (`### 📜 历史指令`); directive headers are content
    const child = parsed.sections.find((s) => s.line > section.line && s.line <= end && s.kind !== 'directive' && s.kind !== 'notice')
    if (child) end = child.line - 1
    return lastContentLine(lines, section.line, end)
  }
  const end = footerRule ? footerRule - 1 : lines.length
  return lastContentLine(lines, 0, end)
}

/** Body text as `> ` blockquote lines (empty lines become `>`; lines already quoted stay as they are). */
export function quote(body: string): string[] {
  if (body.trim() === '') return []
  return body
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => (l.trim() === '' ? '>' : l.startsWith('>') ? l : `> ${l}`))
}

/**
 * Replaces the 🟡 at `statusAt` (an offset in the VS16-stripped line) of line `lineNo` with ✅
 * and appends ` — 已传递 <stamp>` (in a table row: `✅ 已传递 <stamp>` in the cell). Returns null
 * when that line no longer has a 🟡 there.
 */
export function markDelivered(text: string, lineNo: number, statusAt: number, stamp: string): string | null {
  // in a table row the stamp stays in the status cell
  return replaceMark(text, lineNo, statusAt, (head, rest) =>
    head.trimStart().startsWith('|') ? `${head}✅ 已传递 ${stamp}${cellRest(rest)}` : `${head}✅${rest} — 已传递 ${stamp}`
  )
}

/**
 * Marks a row or announcement received where it stands (its file is the target's own): the 🟡
 * at `statusAt` of line `lineNo` becomes `✅ 已接收 <stamp>`, followed by ` — ` and what the
 * status said (`🟡 **待执行** — …` -> `✅ 已接收 <stamp> — **待执行** — …`). Null when no 🟡 is there.
 */
export function markReceivedHere(text: string, lineNo: number, statusAt: number, stamp: string): string | null {
  return replaceMark(text, lineNo, statusAt, (head, rest) => `${head}✅ 已接收 ${stamp}${cellRest(rest)}`)
}

/** What follows a stamp in a table cell: ` — <status text>`, or the cell's end as it was. */
function cellRest(rest: string): string {
  const said = rest.trimStart()
  return said === '' || said.startsWith('|') ? rest : ` — ${said}`
}

/** Rewrites line `lineNo` around the 🟡 at `statusAt` (VS16-stripped offset): `make(before, after)`. */
function replaceMark(text: string, lineNo: number, statusAt: number, make: (head: string, rest: string) => string): string | null {
  const start = lineStart(text, lineNo)
  let end = lineEnd(text, lineNo)
  if (text[end - 1] === '\n') end--
  if (text[end - 1] === '\r') end--
  const line = text.slice(start, end)
  let raw = 0
  for (let seen = 0; raw < line.length && seen < statusAt; raw++) if (line.charCodeAt(raw) !== 0xfe0f) seen++
  while (line.charCodeAt(raw) === 0xfe0f) raw++
  if (!line.startsWith('🟡', raw)) return null
  let after = raw + 2
  if (line.charCodeAt(after) === 0xfe0f) after++
  return text.slice(0, start) + make(line.slice(0, raw), line.slice(after)) + text.slice(end)
}

/**
 * The exact inverse of an insertion: given the text before and after it, an edit that removes the
 * inserted text from a later version of the file (null when it is no longer there). Throws when the
 * change was not a pure insertion or the inserted text now occurs more than once.
 */
export function undoInsertion(before: string, after: string): (text: string) => string | null {
  let p = 0
  const max = Math.min(before.length, after.length)
  while (p < max && before[p] === after[p]) p++
  let s = 0
  while (s < max - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++
  const inserted = after.slice(p, after.length - s)
  if (before.length !== p + s || inserted === '') throw new Error('undoInsertion: not an insertion')
  return (text) => {
    const at = text.indexOf(inserted)
    if (at < 0) return null
    if (text.indexOf(inserted, at + 1) >= 0) throw new Error('the inserted text now occurs more than once')
    return text.slice(0, at) + text.slice(at + inserted.length)
  }
}
