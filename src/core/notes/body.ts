/**
 * Splits a squad note body into its JSON values. Real bodies come in four shapes (spec A): one
 * object (`git notes add`), objects separated by a blank line (`git notes append`), sorted JSON
 * Lines (after a `cat_sort_uniq` merge) and pretty-printed JSON written by hand. The scanner reads
 * one JSON value at a time by matching brackets outside strings, so all four (and mixtures) split
 * the same way. A part it cannot parse is kept with its line, never dropped: scanning resumes on
 * the next line, so one bad line does not hide the notes after it.
 */
import type { NoteShape } from '../../shared/contract/notes-types'

/** One JSON value found in a body. */
export interface BodyValue {
  value: unknown
  /** 1-based first and last line. */
  line: number
  endLine: number
}

/** A body split into values and unparseable parts. */
export interface SplitBody {
  values: BodyValue[]
  unparseable: { line: number; text: string }[]
  shape: NoteShape
}

/** How much of an unparseable part is kept for display. */
const SNIPPET = 200

/** Index just past the value that starts with `{` or `[` at `start`, or -1 when it never closes. */
function matchBrackets(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') inString = true
    else if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}

const newlines = (s: string) => {
  let n = 0
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++
  return n
}

/** The common case, one object (compact or pretty), without scanning: null when the body is anything else. */
function singleValue(text: string): SplitBody | null {
  const start = text.search(/\S/)
  if (start < 0 || text[start] !== '{') return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  const line = newlines(text.slice(0, start)) + 1
  const endLine = line + newlines(text.trim())
  return { values: [{ value, line, endLine }], unparseable: [], shape: endLine > line ? 'pretty' : 'object' }
}

/** Splits `text` into JSON values, unparseable parts, and the body's shape. */
export function splitBody(text: string): SplitBody {
  const single = singleValue(text)
  if (single) return single
  const lineStarts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1)
  const lineOf = (pos: number) => {
    let lo = 0
    let hi = lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (lineStarts[mid]! <= pos) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
  const lineEnd = (pos: number) => {
    const nl = text.indexOf('\n', pos)
    return nl < 0 ? text.length : nl
  }
  const values: BodyValue[] = []
  const bad: { line: number; endLine: number; text: string }[] = []
  const gaps: string[] = []
  let prevEnd = -1
  let pos = 0
  const markBad = (from: number, to: number) => {
    const line = lineOf(from)
    const last = bad.at(-1)
    const piece = text.slice(from, to).trim()
    if (last && last.endLine >= line - 1) {
      last.endLine = lineOf(to)
      if (last.text.length < SNIPPET) last.text = `${last.text}\n${piece}`.slice(0, SNIPPET)
    } else bad.push({ line, endLine: lineOf(to), text: piece.slice(0, SNIPPET) })
  }
  while (pos < text.length) {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++
    if (pos >= text.length) break
    const c = text[pos]!
    let end = c === '{' || c === '[' ? matchBrackets(text, pos) : lineEnd(pos)
    let value: unknown
    let ok = end > pos
    if (ok) {
      try {
        value = JSON.parse(text.slice(pos, end))
      } catch {
        ok = false
      }
    }
    if (!ok) {
      end = lineEnd(pos)
      markBad(pos, end)
      pos = end
      continue
    }
    if (prevEnd >= 0) gaps.push(text.slice(prevEnd, pos))
    values.push({ value, line: lineOf(pos), endLine: lineOf(end - 1) })
    prevEnd = end
    pos = end
  }
  return {
    values,
    unparseable: bad.map((b) => ({ line: b.line, text: b.text })),
    shape: values.length === 0 && bad.length ? 'unparseable' : shapeOf(values, gaps)
  }
}

/** The body's shape from its values and the whitespace between them. */
function shapeOf(values: BodyValue[], gaps: string[]): NoteShape {
  if (values.length === 0) return 'empty'
  if (values.length === 1) return values[0]!.endLine > values[0]!.line ? 'pretty' : 'object'
  const blank = gaps.map((g) => (g.match(/\n/g)?.length ?? 0) >= 2)
  const multiLine = values.some((v) => v.endLine > v.line)
  if (blank.every(Boolean)) return multiLine ? 'mixed' : 'appended'
  if (!blank.some(Boolean) && !multiLine) return 'jsonl'
  return 'mixed'
}
