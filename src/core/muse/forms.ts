/**
 * Line-level recognisers for the header meanings (spec section 3) and the four directive forms
 * (spec section 4, reference regexes). Each is applied to one VS16-stripped line, only after a
 * cheap prefix check, and none can backtrack badly on a 10 KB line. A line longer than
 * MAX_FORM_LINE is no directive or notice at all: V8's backtracking engine runs out of stack on a
 * 10 MB line (the whole file then read as unreadable), and no real directive line is that long.
 */
import type { DirectiveMark, SectionKind } from '../../shared/api'
import { DIRECTIVE_ID_SOURCE } from '../../shared/directive-id'

/** The status emoji a directive line may carry (spec: 🟡 and ✅; real files also 🚫, 🔒, 🟢). */
const STATUS = '🟡|✅|🚫|🔒|🟢'
/** The same, as a list (none is a prefix of another). */
const STATUS_EMOJI = ['🟡', '✅', '🚫', '🔒', '🟢'] as const
type StatusEmoji = (typeof STATUS_EMOJI)[number]

/** The status emoji `s` starts with, or undefined. */
function leadingMark(s: string): StatusEmoji | undefined {
  return STATUS_EMOJI.find((e) => s.startsWith(e))
}

/** A directive id, bounded (`shared/directive-id.ts`): a longer one matches no form. */
const ID = DIRECTIVE_ID_SOURCE
/** A project key or role as written in a target: ASCII upper case (`BUILD`), or a name in a script without case (`产品`). */
const NAME = String.raw`(?:[A-Z][A-Z0-9_-]*|\p{Lo}[\p{Lo}\p{N}_-]*)`
const TARGET = String.raw`${NAME}(?:\/${NAME})?`

/** SPEC: `📡 **S041→MUSE/BUILD**: 🟡 **title** rest`. */
export const SPEC_RE = new RegExp(
  String.raw`^📡\s*\*\*(?<id>${ID})→(?<target>${TARGET})\*\*:\s*(?<status>${STATUS})\s*\*\*(?<title>.+?)\*\*(?<rest>.*)$`,
  'du'
)
/** HEAD: `### S029→MUSE/BUILD (3/13) — ✅ 已接收 3/14 16:00` (any trailing text tolerated). */
export const HEAD_RE = new RegExp(
  String.raw`^(?<h>#{2,4})\s+(?:📡\s+)?(?<id>${ID})→(?<target>${TARGET})\s+\((?<date>[^)]*)\)\s*(?:—\s*)?(?<tail>.*)$`,
  'du'
)
/** LOOSE: `📡 S025→DYA/GM: V1.2.0 加入健康证明功能`. */
export const LOOSE_RE = new RegExp(String.raw`^📡\s+(?<id>${ID})→(?<target>${TARGET}):\s*(?:(?<status>${STATUS})\s*)?(?<title>.*)$`, 'du')
/** NOTICE: `### 📡 QA→BUILD 通知 (2026-03-15 23:46)` with an optional status. */
export const NOTICE_RE =
  /^(?<h>#{2,4})\s+📡\s+(?<src>[A-Z][A-Z0-9_-]*)→(?<dst>[A-Z][A-Z0-9_-]*)(?:\s+通知)?\s+\((?<date>\d{4}-\d{2}-\d{2} \d{2}:\d{2})\)\s*(?:—\s*)?(?:(?<status>🟡|✅)\s*(?<stext>.*)|(?<rest>.*))$/

/**
 * ANNOUNCE: `## 📡 S109 — title (Strategy 4/5 23:35 · P0 Launch Blocker)`: a heading that names a
 * directive with no `→TARGET (date)` (the HEAD form's parts); the file's own role is the target
 * unless an arrow names one. A status may follow (`— 🟡 待执行`) or stand on a later line.
 */
export const ANNOUNCE_RE = new RegExp(
  String.raw`^(?<h>#{2,4})\s+📡\s*(?:\*\*)?(?<id>${ID})(?![A-Za-z0-9+])(?:→(?<target>${TARGET}))?(?:\*\*)?(?<tail>.*)$`,
  'du'
)

/** A directive id at the start of a table cell's text (bold, a status emoji before it allowed). */
const ROW_ID_RE = new RegExp(String.raw`^(?<id>${ID})(?:→(?<target>${TARGET}))?(?=$|[\s:：—–\-·(（|*])`, 'u')

/** A date inside a title's parenthesis (`4/5 23:35`, `2026-04-05 23:35`, `3/14`). */
const DATE_IN_TEXT_RE = /(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}\/\d{1,2})(?:\s+\d{1,2}:\d{2})?/

/** A directive line as recognised, before bodies are attached. */
export interface DirectiveLine {
  form: 'spec' | 'head' | 'loose' | 'row' | 'announce'
  id: string
  target: string
  mark: DirectiveMark
  statusText: string
  title: string
  date: string | null
  /** Offset of the status emoji in the VS16-stripped line, or -1. */
  statusAt: number
}

/** Characters of a line the directive and notice forms are tried on; a longer line matches none (lint names it). */
export const MAX_FORM_LINE = 64 * 1024

const MARKS: Record<StatusEmoji, DirectiveMark> = { '🟡': 'pending', '✅': 'done', '🚫': 'skipped', '🔒': 'frozen', '🟢': 'active' }

/** The mark of a status emoji. */
export function markOf(emoji: string | undefined): DirectiveMark {
  return (emoji && MARKS[emoji as StatusEmoji]) || 'none'
}

/** Recognises a SPEC or LOOSE directive line (`📡 ...`), or null. */
export function matchBareDirective(line: string): DirectiveLine | null {
  if (line.length > MAX_FORM_LINE) return null
  const spec = SPEC_RE.exec(line)
  if (spec?.groups) {
    const g = spec.groups
    return {
      form: 'spec',
      id: g.id!,
      target: g.target!,
      mark: markOf(g.status),
      statusText: g.rest!.trim(),
      title: g.title!.trim(),
      date: null,
      statusAt: spec.indices!.groups!.status![0]
    }
  }
  const loose = LOOSE_RE.exec(line)
  if (loose?.groups) {
    const g = loose.groups
    const at = loose.indices!.groups!.status
    return {
      form: 'loose',
      id: g.id!,
      target: g.target!,
      mark: markOf(g.status),
      statusText: '',
      title: g.title!.trim(),
      date: null,
      statusAt: at ? at[0] : -1
    }
  }
  return null
}

/** Recognises a HEAD directive header line, or null. */
export function matchHeadDirective(line: string): DirectiveLine | null {
  if (line.length > MAX_FORM_LINE) return null
  const m = HEAD_RE.exec(line)
  if (!m?.groups) return null
  const g = m.groups
  const tail = g.tail!.trim()
  const first = leadingMark(tail)
  const statusAt = first ? m.indices!.groups!.tail![0] + g.tail!.indexOf(first) : -1
  const statusText = first ? tail.slice(first.length).trim() : tail
  return { form: 'head', id: g.id!, target: g.target!, mark: markOf(first), statusText, title: '', date: g.date!.trim(), statusAt }
}

/** Strips markdown emphasis and surrounding blanks from a cell or title (`**S177 x**` -> `S177 x`). */
function plainText(s: string): string {
  return s
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Strips separators (`—`, `:`, `-`, `·`) from the start and end of a title. */
function trimSeparators(s: string): string {
  return s.replace(/^[\s—–\-:：·]+/, '').replace(/[\s—–\-:：·]+$/, '')
}

/** The cells of a table row with their offsets (`| a | b |` -> a, b); escaped `\|` stays in its cell. */
function cells(line: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = []
  let start = line.indexOf('|') + 1
  for (let i = start; i <= line.length; i++) {
    if (i === line.length || (line[i] === '|' && line[i - 1] !== '\\')) {
      out.push({ text: line.slice(start, i), at: start })
      start = i + 1
    }
  }
  // the piece after a closing `|` is no cell
  if (out.length > 1 && out[out.length - 1]!.text.trim() === '') out.pop()
  return out
}

/** The first status emoji in `s` at or after `from`: its offset and emoji, or null. */
function firstMark(s: string, from = 0): { at: number; emoji: StatusEmoji } | null {
  let best: { at: number; emoji: StatusEmoji } | null = null
  for (const emoji of STATUS_EMOJI) {
    const at = s.indexOf(emoji, from)
    if (at >= 0 && (!best || at < best.at)) best = { at, emoji }
  }
  return best
}

/**
 * ROW: a markdown table row under a directives section whose first cell starts with an S-id
 * (`| **S177 title (P0)** | 🟡 **待执行** — … |`, `| S090 title | ✅ 已接收 — 待执行 |`); the
 * title is the rest of that cell (or the next cell without a status when the cell is the id
 * alone), the status the first later cell holding 🟡 or ✅. `S177→BUILD` names a target; without
 * one the target is the file's own role (target ''). Header and separator rows are no directives.
 */
export function matchRowDirective(line: string): DirectiveLine | null {
  if (line.length > MAX_FORM_LINE) return null
  if (!line.trimStart().startsWith('|')) return null
  const row = cells(line)
  if (row.length < 2) return null
  let first = plainText(row[0]!.text)
  const lead = leadingMark(first) ?? ''
  if (lead) first = first.slice(lead.length).trim()
  const m = ROW_ID_RE.exec(first)
  if (!m?.groups) return null
  let title = trimSeparators(first.slice(m[0].length))
  let mark: DirectiveMark = 'none'
  let statusText = ''
  let statusAt = -1
  if (lead) {
    mark = markOf(lead)
    statusAt = line.indexOf(lead, row[0]!.at)
  }
  for (let i = 1; i < row.length; i++) {
    const c = row[i]!
    const found = statusAt < 0 ? firstMark(c.text) : null
    if (found) {
      mark = markOf(found.emoji)
      statusAt = c.at + found.at
      statusText = trimSeparators(plainText(c.text.slice(found.at + found.emoji.length)))
    } else if (!title && !firstMark(c.text)) title = trimSeparators(plainText(c.text))
  }
  return { form: 'row', id: m.groups.id!, target: m.groups.target ?? '', mark, statusText, title, date: null, statusAt }
}

/** Recognises an ANNOUNCE heading (`## 📡 S109 — title (...)`), or null; HEAD is matched first. */
export function matchAnnounce(line: string): DirectiveLine | null {
  if (line.length > MAX_FORM_LINE) return null
  const m = ANNOUNCE_RE.exec(line)
  if (!m?.groups) return null
  const tail = m.groups.tail!
  const tailAt = m.indices!.groups!.tail![0]
  const found = firstMark(tail)
  const titlePart = found ? tail.slice(0, found.at) : tail
  const title = trimSeparators(plainText(titlePart))
  const paren = /[(（]([^()（）]*)[)）]\s*$/.exec(title)
  const date = paren ? (DATE_IN_TEXT_RE.exec(paren[1]!)?.[0] ?? null) : null
  return {
    form: 'announce',
    id: m.groups.id!,
    target: m.groups.target ?? '',
    mark: found ? markOf(found.emoji) : 'none',
    statusText: found ? trimSeparators(plainText(tail.slice(found.at + found.emoji.length))) : '',
    title,
    date,
    statusAt: found ? tailAt + found.at : -1
  }
}

/**
 * A status line in an announcement's block: `🟡 待执行`, `**状态**: ✅ 已完成`, `- Status: 🟡 ...`;
 * returns the offset of the emoji in the line too (for pickup), or null.
 */
export function matchBlockStatus(line: string): { mark: DirectiveMark; text: string; at: number } | null {
  if (line.length > MAX_FORM_LINE) return null
  const m = /^[\s>*_-]*(?:(?:状态|狀態|Status|State)\s*(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*)?(?=🟡|✅|🚫|🔒|🟢)/iu.exec(line)
  if (!m) return null
  const emoji = leadingMark(line.slice(m[0].length))!
  return { mark: markOf(emoji), text: trimSeparators(plainText(line.slice(m[0].length + emoji.length))), at: m[0].length }
}

/** A notice header as recognised. */
export interface NoticeLine {
  from: string
  to: string
  date: string
  mark: DirectiveMark
  statusText: string
}

/** Recognises a NOTICE header line, or null. */
export function matchNotice(line: string): NoticeLine | null {
  if (line.length > MAX_FORM_LINE) return null
  const m = NOTICE_RE.exec(line)
  if (!m?.groups) return null
  const g = m.groups
  return { from: g.src!, to: g.dst!, date: g.date!, mark: markOf(g.status), statusText: (g.status ? g.stext : g.rest)?.trim() ?? '' }
}

/** The meaning of a normalised header title (spec section 3). */
export function classifyHeader(title: string): SectionKind {
  if (title.includes('职责边界') || /role boundar/i.test(title)) return 'boundaries'
  if (title.includes('📡')) {
    if (/接收|received/i.test(title)) return 'received'
    if (title.includes('指令队列') || /outgoing|directive queue/i.test(title)) return 'outgoing'
    if (title.includes('通知') || /notice|notification/i.test(title) || /[A-Z]→[A-Z]/.test(title)) return 'notices'
    return 'other'
  }
  if (title.includes('待办') || /\bTODO\b/i.test(title)) return 'todo'
  if (title.includes('技术栈') || /tech(nology)? stack/i.test(title)) return 'techStack'
  if (/CHANGELOG/i.test(title) && /维护规则|rules/i.test(title)) return 'changelogRules'
  return 'other'
}

/** A `- [ ]` / `- [x]` / `- [/]` list item: done flag and text, or null. */
export function matchTodo(line: string): { done: boolean; text: string } | null {
  const m = /^\s*[-*+]\s+\[([ xX/])\]\s?(.*)$/.exec(line)
  if (!m) return null
  return { done: m[1] === 'x' || m[1] === 'X', text: m[2]!.trim() }
}

/** A status line closing a notice (`🟡 待 BUILD 处理`, `✅ BUILD 无需操作`), or null. */
export function matchStatusLine(line: string): { mark: DirectiveMark; text: string } | null {
  const t = line.replace(/\uFE0F/g, '').trim()
  const emoji = leadingMark(t)
  return emoji ? { mark: markOf(emoji), text: t.slice(emoji.length).trim() } : null
}
