/**
 * The role-file parser: one linear pass over the lines builds the section outline, TODO items,
 * directive occurrences (SPEC, HEAD, LOOSE), notices with their status lines, and the closing
 * footer. Fenced code is skipped. Never throws; fast on 250 KB files with 10 KB lines.
 */
import type { DirectiveOccurrence, L0, Notice, RoleSection, SectionKind, TodoItem, TodoProgress } from '../../shared/api'
import { classifyHeader, matchBareDirective, matchHeadDirective, matchNotice, matchStatusLine, matchTodo, type DirectiveLine } from './forms'
import { parseL0 } from './l0'
import { FenceTracker, isRule, normalise, parseHeader, splitLines, titleOf } from './text'

/** Everything Muster reads from one role file. */
export interface ParsedRole {
  role: string
  file: string
  l0: L0 | null
  /** `wc -l` line count. */
  lineCount: number
  sections: RoleSection[]
  todos: TodoProgress
  directives: DirectiveOccurrence[]
  notices: Notice[]
  /** The closing footer (spec lint heuristic), see `footer.ts`; null when none. */
  footer: { ruleLine: number; line: number; closing: boolean } | null
  /** 0-based status offsets of directive lines in the VS16-stripped line (for pickup). */
  statusAt: Map<number, number>
}

interface Open {
  kind: 'directive' | 'notice'
  index: number
  /** SPEC/LOOSE: blockquote body only; HEAD/NOTICE: block until header, rule or blank run. */
  quoteOnly: boolean
  lines: string[]
  blanks: number
  last: number
}

/** Parses a role file's text. `file` is the file name (`build.md`). */
export function parseRole(file: string, text: string): ParsedRole {
  const role = file.replace(/\.md$/i, '').toLowerCase()
  const lines = splitLines(text)
  const total = lines.length
  const sections: RoleSection[] = []
  const stack: RoleSection[] = []
  const items: TodoItem[] = []
  const directives: DirectiveOccurrence[] = []
  const notices: Notice[] = []
  const statusAt = new Map<number, number>()
  const fence = new FenceTracker()
  let todoLevel = 0
  let group: string | null = null
  let open: Open | null = null
  let lastRule = 0
  let afterRule = false
  let footer: ParsedRole['footer'] = null

  const container = (): RoleSection | undefined => {
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.kind !== 'directive' && stack[i]!.kind !== 'notice') return stack[i]
    return undefined
  }
  const close = (): void => {
    if (!open) return
    const body = trimBlank(open.lines)
    if (open.kind === 'directive') {
      const d = directives[open.index]!
      d.body = body.join('\n')
      d.endLine = d.line + (open.quoteOnly ? body.length : open.last)
      if (!d.title) d.title = body.length ? titleOf(body.find((l) => l.trim() !== '') ?? '') : d.statusText
    } else {
      const n = notices[open.index]!
      n.body = body.join('\n')
      n.endLine = n.line + open.last
      n.title = titleOf(body.find((l) => l.trim() !== '') ?? '')
      if (n.mark === 'none') {
        for (let i = body.length - 1; i >= 0; i--) {
          const s = matchStatusLine(body[i]!)
          if (s) {
            n.mark = s.mark
            n.statusText = s.text
            break
          }
        }
      }
    }
    open = null
  }

  for (let i = 0; i < total; i++) {
    const raw = lines[i]!
    const lineNo = i + 1
    if (afterRule && raw.trim() !== '') {
      // only the first non-blank line after a rule can be a footer
      afterRule = false
      if (isFooterLine(raw)) footer = { ruleLine: lastRule, line: lineNo, closing: true }
    }
    const inFence = fence.feed(raw)
    if (open?.quoteOnly && !raw.startsWith('>')) close()
    if (inFence) {
      if (open && !open.quoteOnly) push(open, raw)
      continue
    }
    const first = raw.charCodeAt(0)
    if (first === 35 /* # */ || (first === 32 && raw.trimStart().startsWith('#'))) {
      const h = parseHeader(raw)
      if (h) {
        close()
        const title = normalise(h.title)
        const stripped = raw.replace(/\uFE0F/g, '')
        const head = h.level >= 2 && h.level <= 4 ? matchHeadDirective(stripped) : null
        const notice = !head && h.level >= 2 && h.level <= 4 ? matchNotice(stripped) : null
        const kind: SectionKind = head ? 'directive' : notice ? 'notice' : classifyHeader(title)
        if (todoLevel && h.level <= todoLevel) todoLevel = 0
        if (kind === 'todo') {
          todoLevel = h.level
          group = null
        } else if (todoLevel) group = title
        while (stack.length && stack[stack.length - 1]!.level >= h.level) stack.pop()
        const parent = container()
        const section: RoleSection = { level: h.level, title, kind, line: lineNo, endLine: total }
        if (head) {
          directives.push(occurrence(head, lineNo, role, file, parent))
          if (head.statusAt >= 0) statusAt.set(lineNo, head.statusAt)
          open = { kind: 'directive', index: directives.length - 1, quoteOnly: false, lines: [], blanks: 0, last: 0 }
        } else if (notice) {
          notices.push({ ...notice, title: '', body: '', line: lineNo, endLine: lineNo, role, file, section: parent?.title ?? null })
          open = { kind: 'notice', index: notices.length - 1, quoteOnly: false, lines: [], blanks: 0, last: 0 }
        }
        sections.push(section)
        stack.push(section)
        continue
      }
    }
    if ((first === 45 || first === 42 || first === 95 || first === 32) && isRule(raw)) {
      close()
      lastRule = lineNo
      afterRule = true
      continue
    }
    if (open) {
      if (open.quoteOnly) {
        open.lines.push(raw.replace(/^>\s?/, ''))
        continue
      }
      push(open, raw)
      if (open.blanks >= 2) close()
    }
    if (first === 0xd83d /* 📡 high surrogate */ && raw.startsWith('📡')) {
      const d = matchBareDirective(raw.replace(/\uFE0F/g, ''))
      if (d) {
        close()
        directives.push(occurrence(d, lineNo, role, file, container()))
        if (d.statusAt >= 0) statusAt.set(lineNo, d.statusAt)
        open = { kind: 'directive', index: directives.length - 1, quoteOnly: true, lines: [], blanks: 0, last: 0 }
        continue
      }
    }
    if (todoLevel && raw.includes('[')) {
      const t = matchTodo(raw)
      if (t) items.push({ text: t.text, done: t.done, line: lineNo, group })
    }
  }
  close()
  finishSections(sections, total)
  if (footer) {
    const f = footer
    f.closing = !sections.some((s) => s.line > f.line && !['directive', 'notice', 'received', 'outgoing', 'notices'].includes(s.kind))
  }
  const lineCount = text.length === 0 ? 0 : countNewlines(text)
  return { role, file, l0: parseL0(text), lineCount, sections, todos: progress(items), directives, notices, footer, statusAt }
}

function push(open: Open, raw: string): void {
  open.lines.push(raw)
  if (raw.trim() === '') open.blanks++
  else {
    open.blanks = 0
    open.last = open.lines.length
  }
}

function occurrence(d: DirectiveLine, line: number, role: string, file: string, parent: RoleSection | undefined): DirectiveOccurrence {
  return {
    form: d.form,
    id: d.id,
    target: d.target,
    mark: d.mark,
    statusText: d.statusText,
    title: d.title,
    body: '',
    date: d.date,
    line,
    endLine: line,
    role,
    file,
    section: parent?.title ?? null,
    sectionKind: parent?.kind ?? 'other'
  }
}

/** A line that closes a file: all-italic (`*MUSE QA v1.0*`) or a last-updated stamp. */
export function isFooterLine(line: string): boolean {
  const t = line.trim()
  return /^\*[^*].*\*$/.test(t) || /^_[^_].*_$/.test(t) || /^>?\s*(?:最后更新|last[- ]updated|updated)\s*[:：]/i.test(t)
}

function trimBlank(lines: string[]): string[] {
  let end = lines.length
  while (end > 0 && lines[end - 1]!.trim() === '') end--
  let start = 0
  while (start < end && lines[start]!.trim() === '') start++
  return lines.slice(start, end)
}

/** Each section ends where the next header of the same or a higher level starts. */
function finishSections(sections: RoleSection[], total: number): void {
  const stack: RoleSection[] = []
  for (const s of sections) {
    while (stack.length && stack[stack.length - 1]!.level >= s.level) stack.pop()!.endLine = s.line - 1
    stack.push(s)
  }
  for (const s of stack) s.endLine = total
}

function progress(items: TodoItem[]): TodoProgress {
  const groups: TodoProgress['groups'] = []
  let open = 0
  let done = 0
  for (const it of items) {
    let g = groups.find((x) => x.group === it.group)
    if (!g) groups.push((g = { group: it.group, open: 0, done: 0 }))
    if (it.done) {
      done++
      g.done++
    } else {
      open++
      g.open++
    }
  }
  return { open, done, groups, items }
}

function countNewlines(text: string): number {
  let n = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return n
}
