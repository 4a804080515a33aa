/** Marks the query's terms inside a text (case-insensitive; works for Chinese, which has no spaces). */
import type { ReactNode } from 'react'

/** Search terms of a query: whitespace-separated, quotes and FTS operators dropped. */
export function queryTerms(query: string): string[] {
  return query
    .replace(/["'*()^:]/g, ' ')
    .split(/\s+/)
    .filter((t) => t && !/^(AND|OR|NOT|NEAR)$/.test(t))
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** `text` with every term wrapped in `<mark>`. */
export function Highlight({ text, terms }: { text: string; terms: readonly string[] }): ReactNode {
  if (!terms.length) return text
  const re = new RegExp(
    `(${[...terms]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|')})`,
    'giu'
  )
  const parts = text.split(re)
  return parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))
}
