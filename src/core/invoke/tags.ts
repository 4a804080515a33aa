/**
 * Tolerant parser of the invocation-protocol tags (spec notes-and-invocations B): INVOKE,
 * BROADCAST, CHAIN, RESPONSE blocks, BLOCKED (+ its stated assumption), ASSUMPTION, CONFLICT.
 * Real files are inconsistent, so: roles are lower-cased (`[INVOKE:CFO|…]`); `→`, `->`, `=>` and
 * `⇒` all separate chain links, with or without spaces (`cro→cfo`); tags inside markdown tables
 * count, including their escaped pipe (`[INVOKE:cfo\|…]`); BLOCKED accepts `—`, `–`, `-` or `:`
 * before its reason. Tags inside code (fenced blocks, inline `code` spans) are examples, not
 * invocations, and are skipped.
 */

/** Valid roles of the protocol (base list, then the extended one). */
export const BASE_ROLES = ['ceo', 'cfo', 'cro', 'cmo', 'cpo', 'cto', 'chro', 'coo', 'ciso'] as const
export const EXTENDED_ROLES = ['gc', 'cdo', 'caio', 'cco', 'vpe'] as const
const VALID = new Set<string>([...BASE_ROLES, ...EXTENDED_ROLES])

/** True for a role of the base or extended list. */
export function isValidRole(role: string): boolean {
  return VALID.has(role.toLowerCase())
}

/** One `[INVOKE:role|question]`, with its 1-based line. */
export interface InvokeTag {
  role: string
  question: string
  line: number
}

/** A `[RESPONSE:role]` ... `[/RESPONSE]` block and its fields. */
export interface ResponseBlock {
  role: string
  line: number
  keyFinding: string | null
  supportingData: string[]
  confidence: 'high' | 'medium' | 'low' | null
  caveat: string | null
  closed: boolean
}

/** Everything tagged in a text. */
export interface InvocationTags {
  invokes: InvokeTag[]
  broadcasts: { question: string; line: number }[]
  chains: { roles: string[]; line: number }[]
  responses: ResponseBlock[]
  blocked: { role: string; reason: string; assumption: string | null; line: number }[]
  assumptions: string[]
  conflicts: string[]
}

/** Separators between chain links. */
const LINK = /\s*(?:→|->|=>|⇒)\s*/

/** Splits a written chain (`CRO → CFO`, `cro→cfo`, `cro -> cfo`) into lower-case roles. */
export function parseChain(text: string): string[] {
  return text
    .split(LINK)
    .map((r) => r.trim().toLowerCase())
    .filter(Boolean)
}

const lineAt = (text: string, index: number) => {
  let n = 1
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++
  return n
}

/** `text` with fenced code blocks and inline code spans blanked out (same length, same lines). */
export function maskCode(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ')
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, blank).replace(/`[^`\n]+`/g, blank)
}

/** Parses every tag of `text` (outside code). */
export function parseInvocationTags(source: string): InvocationTags {
  const text = maskCode(source)
  const out: InvocationTags = { invokes: [], broadcasts: [], chains: [], responses: [], blocked: [], assumptions: [], conflicts: [] }
  for (const m of text.matchAll(/\[INVOKE:\s*([A-Za-z][A-Za-z-]*)\s*\\?\|([^\]]*)\]/g)) {
    out.invokes.push({ role: m[1]!.toLowerCase(), question: m[2]!.replace(/\\\|/g, '|').trim(), line: lineAt(text, m.index) })
  }
  for (const m of text.matchAll(/\[BROADCAST:\s*all\s*\\?\|([^\]]*)\]/gi))
    out.broadcasts.push({ question: m[1]!.replace(/\\\|/g, '|').trim(), line: lineAt(text, m.index) })
  for (const m of text.matchAll(/\[CHAIN:\s*([^\]]*)\]/gi)) out.chains.push({ roles: parseChain(m[1]!), line: lineAt(text, m.index) })
  for (const m of text.matchAll(/\[BLOCKED:\s*cannot invoke\s+([A-Za-z][A-Za-z-]*)\s*(?:[—–-]+|:)\s*([^\]]*)\]([^\n]*\n?[^\n]*)/gi)) {
    const a = /State assumption used instead:\s*(.*)/i.exec(m[3] ?? '')
    out.blocked.push({ role: m[1]!.toLowerCase(), reason: m[2]!.trim(), assumption: a ? a[1]!.trim() : null, line: lineAt(text, m.index) })
  }
  for (const m of text.matchAll(/\[ASSUMPTION:\s*([^\]]*)\]/g)) out.assumptions.push(m[1]!.trim())
  for (const m of text.matchAll(/\[CONFLICT:\s*([^\]]*)\]/g)) out.conflicts.push(m[1]!.trim())
  for (const m of text.matchAll(/\[CONFLICT DETECTED\]([\s\S]*?)\[\/CONFLICT\]/g)) out.conflicts.push(m[1]!.trim())
  for (const m of text.matchAll(/\[RESPONSE:\s*([A-Za-z]+)\s*\]/g)) {
    const start = m.index + m[0].length
    const end = text.indexOf('[/RESPONSE]', start)
    const body = text.slice(start, end < 0 ? undefined : end)
    const field = (name: string) => new RegExp(`^\\s*${name}:\\s*(.*)$`, 'mi').exec(body)?.[1]?.trim() ?? null
    const conf = field('Confidence')?.toLowerCase()
    out.responses.push({
      role: m[1]!.toLowerCase(),
      line: lineAt(text, m.index),
      keyFinding: field('Key finding'),
      supportingData: [...body.matchAll(/^\s{2,}-\s+(.*)$/gm)].map((x) => x[1]!.trim()),
      confidence: conf === 'high' || conf === 'medium' || conf === 'low' ? conf : null,
      caveat: field('Caveat'),
      closed: end >= 0
    })
  }
  return out
}
