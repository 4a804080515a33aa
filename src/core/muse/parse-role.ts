/**
 * The role-file parser (reference path): splits a decoded text into lines and
 * feeds every one to the line machine (role-machine.ts), which builds the section outline, TODO
 * items, directive occurrences (SPEC, HEAD, LOOSE, ROW, ANNOUNCE), notices with their status lines, and the
 * closing footer. Never throws; fast on 250 KB files with 10 KB lines. Fleet-wide scans use
 * `digestRole` (role-digest.ts), proven equal to this on what they need.
 */
import type { DirectiveOccurrence, L0, Notice, RoleSection, TodoProgress } from '../../shared/api'
import { parseL0 } from './l0'
import { RoleLineMachine, type Footer, type TodoCounts, type UnmatchedLine } from './role-machine'
import { splitLines } from '../text'

export { isFooterLine } from './role-machine'

/** What the fleet views read from one role file: everything but the outline, TODO texts and status offsets (plain JSON, cacheable). */
export interface RoleDigest {
  role: string
  file: string
  l0: L0 | null
  /** `wc -l` line count. */
  lineCount: number
  todos: TodoCounts
  directives: DirectiveOccurrence[]
  notices: Notice[]
  /** The closing footer (spec lint heuristic), see `lint.ts`; null when none. */
  footer: Footer | null
  /** Lines of directives sections that carry an S-id or 📡 but matched no form (a lint finding each). */
  unmatched: UnmatchedLine[]
}

/** Everything Muster reads from one role file. */
export interface ParsedRole extends RoleDigest {
  sections: RoleSection[]
  todos: TodoProgress
  /** 0-based status offsets of directive lines in the VS16-stripped line (for pickup). */
  statusAt: Map<number, number>
  /** Directive line -> the later line holding its status (an announcement's status line). */
  statusLine: Map<number, number>
}

/** Role name of a role file name, as the parser reports it (`Build.md` -> `build`). */
export function parsedRoleName(file: string): string {
  return file.replace(/\.md$/i, '').toLowerCase()
}

/** Parses a role file's text. `file` is the file name (`build.md`). */
export function parseRole(file: string, text: string): ParsedRole {
  const role = parsedRoleName(file)
  const lines = splitLines(text)
  const machine = new RoleLineMachine(role, file, true)
  for (let i = 0; i < lines.length; i++) machine.line(lines[i]!, i + 1)
  // a final newline ends the last line; the empty piece split() leaves after it is no line
  const r = machine.finish(lines.length > 1 && text.endsWith('\n') ? lines.length - 1 : lines.length)
  const lineCount = text.length === 0 ? 0 : countNewlines(text)
  return {
    role,
    file,
    l0: parseL0(text),
    lineCount,
    sections: r.sections,
    todos: { ...r.todos, items: r.items },
    directives: r.directives,
    notices: r.notices,
    footer: r.footer,
    unmatched: r.unmatched,
    statusAt: r.statusAt,
    statusLine: r.statusLine
  }
}

/** The digest part of a full parse (what `digestRole` must equal). */
export function digestOf(p: ParsedRole): RoleDigest {
  return {
    role: p.role,
    file: p.file,
    l0: p.l0,
    lineCount: p.lineCount,
    todos: { open: p.todos.open, done: p.todos.done, groups: p.todos.groups },
    directives: p.directives,
    notices: p.notices,
    footer: p.footer,
    unmatched: p.unmatched
  }
}

function countNewlines(text: string): number {
  let n = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return n
}
