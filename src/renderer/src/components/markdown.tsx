/**
 * Markdown as role files use it: GFM (tables, task lists, strikethrough), Chinese text and emoji.
 * Raw HTML is dropped (the L0 comment included), links leave the app only for http(s), and remote
 * images are shown as their alt text (the CSP would block them anyway). What agents wrote is shown
 * as on every other screen: hidden characters (bidi, zero-width, terminal escapes) marked as their
 * escapes, and a line past MAX_MARKDOWN_LINE characters cut before it is parsed.
 */
import { useMemo, type ReactElement } from 'react'
import Markdown, { type Components, type Options } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import type { Element, ElementContent, Root, RootContent } from 'hast'
import { cutAt, hasHidden, visibleParts } from '../../../shared/visible-text'

/** A highlighted range of source lines (1-based, inclusive), e.g. a directive and its body. */
export interface LineRange {
  line: number
  endLine: number
  /** Class added to every top-level block starting inside the range. */
  className: string
}

interface LineOptions {
  ranges: readonly LineRange[]
}

/**
 * Rehype plugin: stamps `data-line` (source start line) on every element so the viewer can scroll
 * to a line, and adds the range classes to top-level blocks.
 */
function rehypeLines(options: LineOptions) {
  const stamp = (node: RootContent | Root, topLevel: boolean): void => {
    if (node.type === 'element') {
      const start = node.position?.start.line
      if (start !== undefined) {
        node.properties.dataLine = start
        if (topLevel) addRangeClass(node, start, options.ranges)
      }
    }
    if ('children' in node) for (const child of node.children) stamp(child, node.type === 'root')
  }
  return (tree: Root) => stamp(tree, false)
}

function addRangeClass(node: Element, start: number, ranges: readonly LineRange[]): void {
  for (const r of ranges) {
    if (start >= r.line && start <= r.endLine) {
      const existing = node.properties.className
      const list = Array.isArray(existing) ? existing.map(String) : existing ? [String(existing)] : []
      node.properties.className = [...list, ...r.className.split(' '), ...(start === r.line ? ['md-directive-start'] : [])]
      return
    }
  }
}

/**
 * Rehype plugin: every text node holding a hidden character is split into its plain runs and
 * `<mark class="hidden-char">` escapes, as the `Visible` component shows them (code blocks too: a
 * bidi control in code is the Trojan Source attack).
 */
function rehypeHidden() {
  const mark = (node: Root | Element): void => {
    const out: (RootContent | ElementContent)[] = []
    let changed = false
    for (const child of node.children) {
      if (child.type === 'text' && hasHidden(child.value, { multiline: true })) {
        changed = true
        for (const p of visibleParts(child.value, { multiline: true, keepTabs: true }))
          out.push(
            p.hidden
              ? {
                  type: 'element',
                  tagName: 'mark',
                  properties: { className: ['hidden-char'], title: 'a hidden character, shown escaped', dataTestid: 'hidden-char' },
                  children: [{ type: 'text', value: p.text }]
                }
              : { type: 'text', value: p.text }
          )
      } else {
        if (child.type === 'element') mark(child)
        out.push(child)
      }
    }
    if (changed) node.children = out as typeof node.children
  }
  return (tree: Root) => mark(tree)
}

/** Characters of one source line rendered at most; the rest is named, never parsed (a 10 MB line would freeze the page). */
export const MAX_MARKDOWN_LINE = 10_000

/** `text` with every line over MAX_MARKDOWN_LINE characters cut, saying how much was left out. */
export function cutLongLines(text: string): string {
  if (text.length <= MAX_MARKDOWN_LINE) return text
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.length <= MAX_MARKDOWN_LINE) continue
    const shown = cutAt(line, MAX_MARKDOWN_LINE)
    lines[i] = `${shown} … [${(line.length - shown.length).toLocaleString('en-US')} more characters on this line, not shown]`
  }
  return lines.join('\n')
}

const EXTERNAL = /^https?:\/\//i

const COMPONENTS: Components = {
  a: ({ href, children, node: _node, ...rest }) =>
    href && EXTERNAL.test(href) ? (
      <a href={href} target="_blank" rel="noreferrer noopener" {...rest}>
        {children}
      </a>
    ) : (
      <span className="md-link" title={href}>
        {children}
      </span>
    ),
  img: ({ alt, src }) => (
    <span className="md-img" title={typeof src === 'string' ? src : undefined}>
      [{alt || 'image'}]
    </span>
  ),
  // a GFM task's checkbox (read-only): named by its state, the task's text follows it
  input: ({ node: _node, ...rest }) =>
    rest.type === 'checkbox' ? <input {...rest} aria-label={rest.checked ? 'Done' : 'To do'} /> : <input {...rest} />,
  table: ({ children, node: _node, ...rest }) => (
    // focusable: a wide table scrolls sideways, and the keyboard must reach that too
    <div className="md-table-wrap" tabIndex={0}>
      <table {...rest}>{children}</table>
    </div>
  )
}

const REMARK: Options['remarkPlugins'] = [remarkGfm]
const NO_RANGES: readonly LineRange[] = []

/** Renders `text` as GFM; memoised on the text and the highlighted ranges. */
export function MarkdownView({
  text,
  ranges = NO_RANGES,
  className,
  testId
}: {
  text: string
  ranges?: readonly LineRange[]
  className?: string
  testId?: string
}): ReactElement {
  const rendered = useMemo(
    () => (
      <Markdown remarkPlugins={REMARK} rehypePlugins={[[rehypeLines, { ranges }], rehypeHidden]} components={COMPONENTS} skipHtml>
        {cutLongLines(text)}
      </Markdown>
    ),
    [text, ranges]
  )
  return (
    <div className={`md${className ? ` ${className}` : ''}`} data-testid={testId}>
      {rendered}
    </div>
  )
}

/** Header text without inline markdown markers (`**bold**`, `code`), for outlines and lists. */
export function plainInline(text: string): string {
  return text.replace(/\*\*|__|`/g, '').trim()
}

/** Scrolls `container`'s rendered markdown to the block that holds source line `line`; returns it. */
export function scrollToSourceLine(container: HTMLElement | null, line: number, behavior: ScrollBehavior = 'smooth'): HTMLElement | null {
  if (!container) return null
  let best: HTMLElement | null = null
  let bestLine = -1
  for (const el of container.querySelectorAll<HTMLElement>('[data-line]')) {
    const l = Number(el.dataset.line)
    // Document order is start-line order; among elements starting on the same line the first
    // (outermost) one wins, so a paragraph is chosen rather than the bold text inside it.
    if (l <= line && l > bestLine) {
      best = el
      bestLine = l
    }
    if (l > line) break
  }
  best?.scrollIntoView({ block: 'start', behavior })
  return best
}
