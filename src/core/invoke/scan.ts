/**
 * Checks every invocation tag of a text (a role file, a directive body, an event body) against
 * the protocol, tolerantly and precisely:
 * - an INVOKE takes the CHAIN on its line or the nearest one above in the same section (a
 *   markdown header starts a new one), else the first one below it in that section when no other
 *   INVOKE comes between;
 * - a chain that already ends with the target is the chain the invocation carries
 *   (`[CHAIN: cro → cfo]` with `[INVOKE:cfo|…]` = cro invoking cfo);
 * - sibling calls recorded as one chain (the text invoked cfo, then writes `cro → cfo → cmo` for
 *   its own next call, as the protocol's own worked example does, with cfo's RESPONSE quoted
 *   between; no header between) are reported and checked as the siblings they are;
 * - the board-meeting phase comes from the text's headers (`## Board meeting … / ### Phase 2 …`);
 * - BROADCAST is the CEO's; BLOCKED must state its assumption; RESPONSE blocks keep their format.
 */
import { ApiError } from '../../shared/api-error'
import type { ChainFinding, ChainRule } from '../../shared/contract/invoke'
import { FenceTracker, parseHeader, splitLines } from '../text'
import { blockedLine, checkInvocation } from './rules'
import { isValidRole, parseInvocationTags } from './tags'

/** A finding without its source (the caller knows where the text came from). */
export type TextFinding = Omit<ChainFinding, 'source'>

/** Options of a scan. */
export interface ScanOptions {
  /** The board-meeting phase of the whole text (overrides headers). */
  phase?: 1 | 2 | 3
  /** Who wrote the text, when known (a role, or the executive mentor). */
  caller?: string
}

const BOARD = /board|董事会/i
const PHASE = /\bphase\s*([1-3])\b|阶段\s*([一二三1-3])/i
const CN_DIGIT: Record<string, 1 | 2 | 3> = { 一: 1, 二: 2, 三: 3, '1': 1, '2': 2, '3': 3 }

/** Per line (index = line - 1): the board-meeting phase from the headers, and the section number. */
export function layoutByLine(text: string): { phase: 1 | 2 | 3 | null; section: number }[] {
  const stack: { level: number; board: boolean; phase: 1 | 2 | 3 | null }[] = []
  const fence = new FenceTracker()
  let section = 0
  return splitLines(text).map((line) => {
    if (!fence.feed(line)) {
      const h = parseHeader(line)
      if (h) {
        section++
        while (stack.length && stack.at(-1)!.level >= h.level) stack.pop()
        const m = PHASE.exec(h.title)
        stack.push({ level: h.level, board: BOARD.test(h.title), phase: m ? CN_DIGIT[(m[1] ?? m[2])!]! : null })
      }
    }
    const phase = stack.some((s) => s.board) ? ([...stack].reverse().find((s) => s.phase !== null)?.phase ?? null) : null
    return { phase, section }
  })
}

/** Checks every tag of `text`; findings sorted by line. */
export function scanText(text: string, opts: ScanOptions = {}): TextFinding[] {
  const tags = parseInvocationTags(text)
  const layout = layoutByLine(text)
  const phaseAt = (line: number) => opts.phase ?? layout[line - 1]?.phase ?? undefined
  const sectionAt = (line: number) => layout[line - 1]?.section ?? 0
  const chainAt = (line: number) => {
    const same = tags.chains.filter((c) => sectionAt(c.line) === sectionAt(line))
    const above = same.filter((c) => c.line <= line).at(-1)
    if (above) return above
    // a chain below belongs to the nearest invocation above it: not ours when another comes between
    const below = same.find((c) => c.line > line)
    return below && !tags.invokes.some((i) => i.line > line && i.line <= below.line) ? below : undefined
  }
  /** No header between two lines: one author's run of calls (answers quoted in between included). */
  const sameRun = (from: number, to: number) => sectionAt(from) === sectionAt(to)
  const out: TextFinding[] = []
  const add = (level: 'error' | 'warning', rule: ChainRule, line: number, message: string, more: Partial<TextFinding> = {}) =>
    out.push({ level, rule, line, message, chain: [], written: null, target: null, phase: phaseAt(line) ?? null, blocked: null, ...more })

  const invokedAt = new Map<string, number>()
  for (const inv of tags.invokes) {
    const written = chainAt(inv.line)?.roles ?? []
    const chain = written.length >= 2 && written.at(-1) === inv.role ? written.slice(0, -1) : [...written]
    const siblings: string[] = []
    while (chain.length >= 2 && invokedAt.has(chain.at(-1)!) && sameRun(invokedAt.get(chain.at(-1)!)!, inv.line))
      siblings.unshift(chain.pop()!)
    if (!invokedAt.has(inv.role)) invokedAt.set(inv.role, inv.line)
    const more = { chain, target: inv.role, written: chain.join() === written.join() ? null : written }
    if (siblings.length) {
      add(
        'warning',
        'sibling-chain',
        inv.line,
        `[CHAIN: ${written.join(' → ')}] names ${siblings.join(', ')} as caller${siblings.length > 1 ? 's' : ''} of ${inv.role}, but this text invoked ${siblings.join(', ')} itself (line ${invokedAt.get(siblings[0]!)}): sibling calls each carry their own chain, here [CHAIN: ${[...chain, inv.role].join(' → ')}]`,
        more
      )
    }
    if (!isValidRole(inv.role)) add('warning', 'unknown-role', inv.line, `unknown role '${inv.role}' in INVOKE`, more)
    const verdict = checkInvocation(inv.role, { chain, phase: phaseAt(inv.line), caller: opts.caller })
    if (!verdict.allowed)
      add('error', verdict.rule, inv.line, `INVOKE:${inv.role} blocked (${verdict.rule}): ${verdict.reason}`, {
        ...more,
        blocked: blockedLine(inv.role, verdict.reason)
      })
  }
  for (const b of tags.broadcasts) {
    const invoker = chainAt(b.line)?.roles.at(-1) ?? opts.caller?.toLowerCase()
    if (invoker && invoker !== 'ceo')
      add('error', 'broadcast', b.line, `BROADCAST by ${invoker}: only the CEO may broadcast`, {
        chain: chainAt(b.line)?.roles ?? [],
        target: 'all'
      })
    if (phaseAt(b.line) === 2)
      add('error', 'isolation', b.line, 'BROADCAST blocked (isolation): board-meeting phase 2 allows no invocations', {
        target: 'all',
        blocked: blockedLine('all', 'board-meeting phase 2 allows no invocations')
      })
  }
  for (const b of tags.blocked) {
    if (!b.assumption)
      add(
        'warning',
        'no-assumption',
        b.line,
        `[BLOCKED: cannot invoke ${b.role} …] states no assumption ("State assumption used instead: …" must follow)`,
        { target: b.role }
      )
  }
  for (const r of tags.responses) {
    const problems = [
      r.closed ? '' : 'no [/RESPONSE]',
      r.keyFinding ? '' : 'no "Key finding:"',
      r.confidence ? '' : 'no "Confidence: high|medium|low"',
      r.supportingData.length >= 2 && r.supportingData.length <= 3 ? '' : `${r.supportingData.length} supporting data points (2-3 expected)`
    ].filter(Boolean)
    if (problems.length) add('warning', 'response-format', r.line, `[RESPONSE:${r.role}]: ${problems.join(', ')}`, { target: r.role })
  }
  return out.sort((a, b) => a.line - b.line)
}

/** Result of checking every tag of a text, as one-line strings. */
export interface TextCheck {
  violations: string[]
  warnings: string[]
}

/** `scanText` as lines for messages: rule violations, then the rest (`line N: ...`). */
export function checkText(text: string, phase?: 1 | 2 | 3): TextCheck {
  const findings = scanText(text, { phase })
  return {
    violations: findings.filter((f) => f.level === 'error').map((f) => `line ${f.line}: ${f.message}`),
    warnings: findings.filter((f) => f.level === 'warning').map((f) => `line ${f.line}: ${f.message}`)
  }
}

/**
 * The operator's own sends are checked before they are written: throws a `forbidden` ApiError
 * listing the violations when `text` breaks a hard rule (warnings do not block).
 */
export function assertInvocationsAllowed(text: string): void {
  const { violations } = checkText(text)
  if (violations.length) throw new ApiError(`invocation refused: ${violations.join('; ')}`, 'forbidden')
}
