/**
 * Line-level recognisers for the header meanings (spec section 3) and the four directive forms
 * (spec section 4, reference regexes). Each is applied to one VS16-stripped line, only after a
 * cheap prefix check, and none can backtrack badly on a 10 KB line.
 */
import type { DirectiveMark, SectionKind } from '../../shared/api'

const ID = String.raw`S\d{2,4}[A-Za-z0-9+]*`
const TARGET = String.raw`[A-Z][A-Z0-9_-]*(?:\/[A-Z][A-Z0-9_-]*)?`

/** SPEC: `📡 **S041→MUSE/BUILD**: 🟡 **title** rest`. */
export const SPEC_RE = new RegExp(
  String.raw`^📡\s*\*\*(?<id>${ID})→(?<target>${TARGET})\*\*:\s*(?<status>🟡|✅)\s*\*\*(?<title>.+?)\*\*(?<rest>.*)$`,
  'd'
)
/** HEAD: `### S029→MUSE/BUILD (3/13) — ✅ 已接收 3/14 16:00` (any trailing text tolerated). */
export const HEAD_RE = new RegExp(
  String.raw`^(?<h>#{2,4})\s+(?:📡\s+)?(?<id>${ID})→(?<target>${TARGET})\s+\((?<date>[^)]*)\)\s*(?:—\s*)?(?<tail>.*)$`,
  'd'
)
/** LOOSE: `📡 S025→DYA/GM: V1.2.0 加入健康证明功能`. */
export const LOOSE_RE = new RegExp(String.raw`^📡\s+(?<id>${ID})→(?<target>${TARGET}):\s*(?:(?<status>🟡|✅)\s*)?(?<title>.*)$`, 'd')
/** NOTICE: `### 📡 QA→BUILD 通知 (2026-03-15 23:46)` with an optional status. */
export const NOTICE_RE =
  /^(?<h>#{2,4})\s+📡\s+(?<src>[A-Z][A-Z0-9_-]*)→(?<dst>[A-Z][A-Z0-9_-]*)(?:\s+通知)?\s+\((?<date>\d{4}-\d{2}-\d{2} \d{2}:\d{2})\)\s*(?:—\s*)?(?:(?<status>🟡|✅)\s*(?<stext>.*)|(?<rest>.*))$/

/** A directive line as recognised, before bodies are attached. */
export interface DirectiveLine {
  form: 'spec' | 'head' | 'loose'
  id: string
  target: string
  mark: DirectiveMark
  statusText: string
  title: string
  date: string | null
  /** Offset of the status emoji in the VS16-stripped line, or -1. */
  statusAt: number
}

/** The mark of a status emoji. */
export function markOf(emoji: string | undefined): DirectiveMark {
  return emoji === '🟡' ? 'pending' : emoji === '✅' ? 'done' : 'none'
}

/** Recognises a SPEC or LOOSE directive line (`📡 ...`), or null. */
export function matchBareDirective(line: string): DirectiveLine | null {
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
  const m = HEAD_RE.exec(line)
  if (!m?.groups) return null
  const g = m.groups
  const tail = g.tail!.trim()
  const first = tail.startsWith('🟡') ? '🟡' : tail.startsWith('✅') ? '✅' : undefined
  const statusAt = first ? m.indices!.groups!.tail![0] + g.tail!.indexOf(first) : -1
  const statusText = first ? tail.slice(first.length).trim() : tail
  return { form: 'head', id: g.id!, target: g.target!, mark: markOf(first), statusText, title: '', date: g.date!.trim(), statusAt }
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
  if (t.startsWith('🟡')) return { mark: 'pending', text: t.slice(2).trim() }
  if (t.startsWith('✅')) return { mark: 'done', text: t.slice(1).trim() }
  return null
}
