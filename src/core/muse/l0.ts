/**
 * Parses a MUSE role file's L0 status line (spec/muse-role-files.md section 2).
 *
 * Real files break the spec's `{version} | {top_priority} | {status_flags}` shape in every way
 * (no pipes, one pipe, no version, 180-character bodies), so the parser is tolerant: it reads
 * line 1 only, after an optional BOM, with `\r` tolerated, and never throws.
 */
import type { L0 } from '../../shared/api'

/** The spec's limit on the L0 body, in characters. */
export const L0_MAX_LENGTH = 120

const L0_LINE = /^\uFEFF?<!--\s*L0:\s*(?<body>.*?)\s*-->\s*$/
const VERSION = /^v?\d+(\.\d+){1,2}\S*$/

/** Returns the first line of `text` without BOM or line ending (cheap on huge files). */
export function firstLine(text: string): string {
  let end = text.indexOf('\n')
  if (end < 0) end = text.length
  let line = text.slice(0, end)
  if (line.endsWith('\r')) line = line.slice(0, -1)
  if (line.charCodeAt(0) === 0xfeff) line = line.slice(1)
  return line
}

/**
 * Splits a status-flag list on ASCII or full-width commas outside parentheses
 * (`T2巩固✅(a, b)` stays one flag), dropping empty items.
 */
export function splitFlags(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '(' || c === '（') depth++
    else if ((c === ')' || c === '）') && depth > 0) depth--
    else if ((c === ',' || c === '，') && depth === 0) {
      out.push(text.slice(start, i))
      start = i + 1
    }
  }
  out.push(text.slice(start))
  return out.map((s) => s.trim()).filter((s) => s.length > 0)
}

/** Parses the L0 line of a role file's text; null when line 1 is not an L0 comment. */
export function parseL0(text: string): L0 | null {
  const raw = firstLine(text)
  const match = L0_LINE.exec(raw)
  if (!match) return null
  const body = match.groups?.body ?? ''
  const parts = splitPipes(body)
  let version: string | null = null
  if (parts.length > 0 && VERSION.test(parts[0]!)) version = parts.shift()!
  let topPriority: string | null = parts[0] && parts[0].length > 0 ? parts[0] : null
  let flags = parts[1] ? splitFlags(parts[1]) : []
  if (parts.length < 2 && topPriority !== null) {
    // Real files often have no flags part and put a comma list where the priority goes
    // ("v2.22.0 | S043✅, Skill Marketplace✅, ..."): the first item leads, the rest are flags.
    const items = splitFlags(topPriority)
    if (items.length > 1) {
      topPriority = items[0]!
      flags = items.slice(1)
    }
  }
  const length = [...body].length
  return { raw, body, version, topPriority, flags, length, overLimit: length > L0_MAX_LENGTH }
}

/** Splits on `|` into at most 3 trimmed parts (a 4th pipe stays inside the flags). */
function splitPipes(body: string): string[] {
  const parts: string[] = []
  let rest = body
  while (parts.length < 2) {
    const at = rest.indexOf('|')
    if (at < 0) break
    parts.push(rest.slice(0, at).trim())
    rest = rest.slice(at + 1)
  }
  parts.push(rest.trim())
  return parts.length === 1 && parts[0] === '' ? [] : parts
}
