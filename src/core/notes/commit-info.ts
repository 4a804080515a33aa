/** The parts of a commit object the Notes screen shows: subject, author, author date. */
import type { GitObject } from '../git'

/** What is known about an annotated object. */
export interface CommitInfo {
  subject: string | null
  author: string | null
  date: string | null
}

/** Parses a raw commit from `cat-file --batch`; notes on other objects or missing ones say so. */
export function commitInfo(obj: GitObject | null): CommitInfo {
  if (!obj) return { subject: null, author: null, date: null }
  if (obj.type !== 'commit') return { subject: `(a ${obj.type}, not a commit)`, author: null, date: null }
  const text = obj.content.toString('utf8')
  const split = text.indexOf('\n\n')
  const header = split < 0 ? text : text.slice(0, split)
  const message = split < 0 ? '' : text.slice(split + 2)
  const author = /^author (.*) <[^>]*> (\d+) [+-]\d{4}$/m.exec(header)
  return {
    subject: message.split('\n')[0]!.trim(),
    author: author ? author[1]!.trim() : null,
    date: author ? new Date(Number(author[2]) * 1000).toISOString().replace(/\.000Z$/, 'Z') : null
  }
}
