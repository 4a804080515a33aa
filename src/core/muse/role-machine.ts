/**
 * The role-file parser's state machine: fed one line at a time (VS16 kept, `\r` and BOM already
 * removed), it builds the section outline, TODO counts (and items), directive occurrences (SPEC,
 * HEAD, LOOSE), notices with their status lines, and the closing footer. Fenced code is skipped.
 *
 * Two drivers share it, so they cannot disagree: `parseRole` feeds every line of a decoded text;
 * `digestRole` (role-digest.ts) scans the raw bytes and feeds only the lines this machine would
 * not provably ignore, reporting plain TODO items through `todo()`. The getters `settled`,
 * `fenceOpen` and `inTodo` tell that driver which lines it may skip.
 */
import type { DirectiveOccurrence, Notice, RoleSection, SectionKind, TodoItem, TodoProgress } from '../../shared/api'
import { ANY_ID_RE } from '../../shared/directive-id'
import {
  classifyHeader,
  matchAnnounce,
  matchBareDirective,
  matchBlockStatus,
  matchHeadDirective,
  matchNotice,
  matchRowDirective,
  matchStatusLine,
  matchTodo,
  type DirectiveLine
} from './forms'
import { FenceTracker, isRule, normalise, parseHeader, titleOf } from '../text'

/** TODO progress without the items (what the fleet views need). */
export type TodoCounts = Omit<TodoProgress, 'items'>

/** The closing footer (lint heuristic), see lint.ts. */
export interface Footer {
  ruleLine: number
  line: number
  closing: boolean
}

/** A line in a directives section that carries an S-id or 📡 but matched no directive form (lint). */
export interface UnmatchedLine {
  line: number
  /** The line, trimmed and cut to 120 characters. */
  text: string
}

/** Section kinds whose lines are directives: table rows count there, and unmatched S-id lines are findings. */
export function isDirectivesKind(kind: SectionKind | undefined): boolean {
  return kind === 'received' || kind === 'outgoing'
}

/** What the machine has read once every line was fed. */
export interface MachineResult {
  sections: RoleSection[]
  todos: TodoCounts
  /** Every TODO item with its text; empty unless the machine was created with `items`. */
  items: TodoItem[]
  directives: DirectiveOccurrence[]
  notices: Notice[]
  footer: Footer | null
  statusAt: Map<number, number>
  /** Directive line -> the later line holding its status (an announcement's status line). */
  statusLine: Map<number, number>
  unmatched: UnmatchedLine[]
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

/** Section kinds that do not end the file's body (they may follow a closing footer). */
const TRAILING_KINDS: readonly SectionKind[] = ['directive', 'notice', 'received', 'outgoing', 'notices']

/** The line-by-line role-file parser. */
export class RoleLineMachine {
  private readonly sections: RoleSection[] = []
  private readonly stack: RoleSection[] = []
  private readonly items: TodoItem[] = []
  private readonly groups: TodoCounts['groups'] = []
  private readonly groupIndex = new Map<string | null, TodoCounts['groups'][number]>()
  private openTodos = 0
  private doneTodos = 0
  private readonly directives: DirectiveOccurrence[] = []
  private readonly notices: Notice[] = []
  private readonly statusAt = new Map<number, number>()
  private readonly statusLine = new Map<number, number>()
  private readonly unmatched: UnmatchedLine[] = []
  /** True inside a blockquote that opened with a receipt heading (`> **… 已接收战略指令 …**`). */
  private inQuotedReceipt = false
  /** True while the innermost ordinary section is a directives section (received or outgoing). */
  private inDirs = false
  private readonly fence = new FenceTracker()
  private todoLevel = 0
  private group: string | null = null
  private open: Open | null = null
  private lastRule = 0
  private afterRule = false
  private footer: Footer | null = null
  /** True from a footer line until the next header: what follows the footer is in no section. */
  private pastFooter = false
  /** Directives read past the footer with the section they would have had (if the footer is no closing one). */
  private readonly afterFooter: { index: number; parent: RoleSection | undefined }[] = []

  /** @param role role name (`build`), @param file file name (`build.md`), @param keepItems also record every TODO item. */
  constructor(
    private readonly role: string,
    private readonly file: string,
    private readonly keepItems: boolean
  ) {}

  /**
   * True when no block is open, no footer is awaited and no quoted receipt is open: a line can only
   * change fence, header, rule, 📡, `>` receipt or TODO state.
   */
  get settled(): boolean {
    return this.open === null && !this.afterRule && !this.inQuotedReceipt
  }

  /** True inside a fenced code block. */
  get fenceOpen(): boolean {
    return this.fence.open
  }

  /** True inside a received or outgoing directives section (rows and S-id lines there are read). */
  get inDirectives(): boolean {
    return this.inDirs
  }

  /** True under a TODO header (list items there are TODO items). */
  get inTodo(): boolean {
    return this.todoLevel > 0
  }

  /**
   * A TODO item line the driver matched itself (same rule as `matchTodo`); only valid while
   * `settled`, `inTodo` and not `fenceOpen`, and only without `keepItems` (no text is given).
   */
  todo(done: boolean): void {
    this.count(done, this.group)
  }

  /** Feeds line `lineNo` (1-based; lines are fed in order, skipped ones must be ignorable). */
  line(raw: string, lineNo: number): void {
    if (this.afterRule && raw.trim() !== '') {
      // only the first non-blank line after a rule can be a footer
      this.afterRule = false
      if (isFooterLine(raw)) {
        this.footer = { ruleLine: this.lastRule, line: lineNo, closing: true }
        this.pastFooter = true
      }
    }
    if (this.inQuotedReceipt && !raw.startsWith('>')) this.inQuotedReceipt = false
    const inFence = this.fence.feed(raw)
    if (this.open?.quoteOnly && !raw.startsWith('>')) this.close()
    if (inFence) {
      if (this.open && !this.open.quoteOnly) push(this.open, raw)
      return
    }
    const first = raw.charCodeAt(0)
    if ((first === 35 /* # */ || (first === 32 && raw.trimStart().startsWith('#'))) && this.header(raw, lineNo)) return
    if ((first === 45 || first === 42 || first === 95 || first === 32) && isRule(raw)) {
      this.close()
      this.lastRule = lineNo
      this.afterRule = true
      return
    }
    const open = this.open
    if (open) {
      if (open.quoteOnly) {
        open.lines.push(raw.replace(/^>\s?/, ''))
        return
      }
      push(open, raw)
      if (open.blanks >= 2) this.close()
    }
    if (first === 0xd83d /* 📡 high surrogate */ && raw.startsWith('📡')) {
      const d = matchBareDirective(raw.replace(/\uFE0F/g, ''))
      if (d) {
        this.close()
        this.add(d, lineNo)
        this.open = { kind: 'directive', index: this.directives.length - 1, quoteOnly: true, lines: [], blanks: 0, last: 0 }
        return
      }
    }
    if (!open && this.quotedReceipt(raw, lineNo)) return
    if (!open && this.inDirs) {
      // a table row is a directive only outside another directive's block (a receipt's body may hold tables)
      if (first === 124 /* | */ || (first === 32 && raw.trimStart().startsWith('|'))) {
        const row = matchRowDirective(raw.replace(/\uFE0F/g, ''))
        if (row && (row.target || this.container()?.kind === 'received')) return this.add(row, lineNo)
      }
      if (raw.includes('📡') || ANY_ID_RE.test(raw)) this.unmatched.push({ line: lineNo, text: raw.trim().slice(0, 120) })
    }
    if (this.todoLevel && raw.includes('[')) {
      const t = matchTodo(raw)
      if (t) {
        if (this.keepItems) this.items.push({ text: t.text, done: t.done, line: lineNo, group: this.group })
        this.count(t.done, this.group)
      }
    }
  }

  /**
   * Closes what is open and returns the result; `total` is the number of the file's last line
   * (the empty piece after a final newline is no line: a file of `wc -l` = 10 ends at line 10).
   */
  finish(total: number): MachineResult {
    this.close()
    finishSections(this.sections, total)
    const f = this.footer
    if (f) f.closing = !this.sections.some((s) => s.line > f.line && !TRAILING_KINDS.includes(s.kind))
    // past a closing footer a directive belongs to no section; past one that is not, to the one it is in
    if (f && !f.closing) for (const { index, parent } of this.afterFooter) this.inSection(this.directives[index]!, parent)
    return {
      sections: this.sections,
      todos: { open: this.openTodos, done: this.doneTodos, groups: this.groups },
      items: this.items,
      directives: this.directives,
      notices: this.notices,
      footer: f,
      statusAt: this.statusAt,
      statusLine: this.statusLine,
      unmatched: this.unmatched
    }
  }

  /** Records a directive line read at `lineNo` in the current section (or past the footer). */
  private add(d: DirectiveLine, lineNo: number): void {
    const parent = this.container()
    if (this.pastFooter) this.afterFooter.push({ index: this.directives.length, parent })
    this.directives.push(this.occurrence(d, lineNo, this.pastFooter ? undefined : parent))
    if (d.statusAt >= 0) this.statusAt.set(lineNo, d.statusAt)
  }

  /** A header line: a new section (and maybe a HEAD directive or notice); false if not a header. */
  private header(raw: string, lineNo: number): boolean {
    const h = parseHeader(raw)
    if (!h) return false
    this.close()
    const title = normalise(h.title)
    const stripped = raw.replace(/\uFE0F/g, '')
    const level = h.level >= 2 && h.level <= 4
    const head = level ? (matchHeadDirective(stripped) ?? matchAnnounce(stripped)) : null
    const notice = !head && level ? matchNotice(stripped) : null
    // a directive or notice block after the footer stays past it; any other header starts a section
    if (!head && !notice) this.pastFooter = false
    const kind: SectionKind = head ? 'directive' : notice ? 'notice' : classifyHeader(title)
    if (this.todoLevel && h.level <= this.todoLevel) this.todoLevel = 0
    if (kind === 'todo') {
      this.todoLevel = h.level
      this.group = null
    } else if (this.todoLevel) this.group = title
    const stack = this.stack
    while (stack.length && stack[stack.length - 1]!.level >= h.level) stack.pop()
    const parent = this.container()
    // endLine is set by finishSections once the next header (or the end) is known
    const section: RoleSection = { level: h.level, title, kind, line: lineNo, endLine: lineNo }
    // a header naming an S-id that is no directive form, under a directives section or with a 📡
    if (!head && !notice && ANY_ID_RE.test(stripped) && (stripped.includes('📡') || isDirectivesKind(parent?.kind)))
      this.unmatched.push({ line: lineNo, text: raw.trim().slice(0, 120) })
    if (head) {
      this.add(head, lineNo)
      this.open = { kind: 'directive', index: this.directives.length - 1, quoteOnly: false, lines: [], blanks: 0, last: 0 }
    } else if (notice) {
      this.notices.push({
        ...notice,
        title: '',
        body: '',
        line: lineNo,
        endLine: lineNo,
        role: this.role,
        file: this.file,
        section: parent?.title ?? null
      })
      this.open = { kind: 'notice', index: this.notices.length - 1, quoteOnly: false, lines: [], blanks: 0, last: 0 }
    }
    this.sections.push(section)
    stack.push(section)
    this.inDirs = isDirectivesKind(this.container()?.kind)
    return true
  }

  private count(done: boolean, group: string | null): void {
    let g = this.groupIndex.get(group)
    if (!g) {
      g = { group, open: 0, done: 0 }
      this.groups.push(g)
      this.groupIndex.set(group, g)
    }
    if (done) {
      this.doneTodos++
      g.done++
    } else {
      this.openTodos++
      g.open++
    }
  }

  private container(): RoleSection | undefined {
    const stack = this.stack
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.kind !== 'directive' && stack[i]!.kind !== 'notice') return stack[i]
    return undefined
  }

  private close(): void {
    const open = this.open
    if (!open) return
    const body = trimBlank(open.lines)
    if (open.kind === 'directive') {
      const d = this.directives[open.index]!
      d.body = body.join('\n')
      d.endLine = d.line + (open.quoteOnly ? body.length : open.last)
      if (!d.title) d.title = body.length ? bodyTitle(d.id, body) : d.statusText
      if (d.form === 'announce' && d.mark === 'none') this.blockStatus(d, open)
    } else {
      const n = this.notices[open.index]!
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
    this.open = null
  }

  /**
   * The blockquote receipt form (`> **🔴 BUILD 已接收战略指令 …**` then `> - S205 …` items): no
   * form Muster reads, so the heading line and every quoted item naming an S-id are lint findings,
   * never silently left out. True when the line was taken as part of one.
   */
  private quotedReceipt(raw: string, lineNo: number): boolean {
    if (!raw.startsWith('>')) return false
    if (QUOTED_RECEIPT_RE.test(raw)) this.inQuotedReceipt = true
    else if (!this.inQuotedReceipt || !ANY_ID_RE.test(raw)) return false
    this.unmatched.push({ line: lineNo, text: raw.trim().slice(0, 120) })
    return true
  }

  /** An announcement without a status in its heading takes the first status line of its block. */
  private blockStatus(d: DirectiveOccurrence, open: Open): void {
    for (let i = 0; i < open.last; i++) {
      const line = open.lines[i]!.replace(/\uFE0F/g, '')
      const s = matchBlockStatus(line)
      if (!s) continue
      d.mark = s.mark
      d.statusText = s.text
      this.statusAt.set(d.line, s.at)
      this.statusLine.set(d.line, d.line + 1 + i)
      return
    }
  }

  private inSection(o: DirectiveOccurrence, parent: RoleSection | undefined): void {
    o.section = parent?.title ?? null
    o.sectionKind = parent?.kind ?? 'other'
  }

  private occurrence(d: DirectiveLine, line: number, parent: RoleSection | undefined): DirectiveOccurrence {
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
      role: this.role,
      file: this.file,
      section: parent?.title ?? null,
      sectionKind: parent?.kind ?? 'other'
    }
  }
}

/** A quoted bold line announcing received directives: `> **🔴 BUILD 已接收战略指令 (12/03)**`. */
const QUOTED_RECEIPT_RE = /^>\s*\*\*[^*]*(?:接收|received)[^*]*(?:指令|directive)/iu

/**
 * The title of a directive from its body: the first line that is no directive line itself. A
 * quoted copy of the directive's own line (`> 📡 **S204→X**: 🟡 **title**`) gives its title; a
 * quoted line of another directive is never taken for this one's title.
 */
function bodyTitle(id: string, body: string[]): string {
  for (const line of body) {
    if (line.trim() === '') continue
    const bare = line.replace(/^\s*>\s?/, '').replace(/\uFE0F/g, '')
    if (!bare.startsWith('📡')) return titleOf(line)
    const quoted = matchBareDirective(bare)
    if (quoted) {
      if (quoted.id === id && quoted.title) return quoted.title
      continue
    }
    if (!ANY_ID_RE.test(bare)) return titleOf(line)
  }
  return ''
}

/** A line that closes a file: all-italic (`*MUSE QA v1.0*`) or a last-updated stamp. */
export function isFooterLine(line: string): boolean {
  const t = line.trim()
  return /^\*[^*].*\*$/.test(t) || /^_[^_].*_$/.test(t) || /^>?\s*(?:最后更新|last[- ]updated|updated)\s*[:：]/i.test(t)
}

function push(open: Open, raw: string): void {
  open.lines.push(raw)
  if (raw.trim() === '') open.blanks++
  else {
    open.blanks = 0
    open.last = open.lines.length
  }
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
