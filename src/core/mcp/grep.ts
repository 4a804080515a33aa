/**
 * `grep -n PATTERN` as MUSE's memory search runs it: a POSIX basic regular expression matched
 * line by line, hits printed as `N:line`. The translation covers BRE (`.` `*` `^` `$` `[...]`,
 * `\(` `\)` `\{m,n\}`, GNU's `\|` `\+` `\?`); `+ ? | ( ) { }` alone are literal, as in grep.
 * JavaScript regexes backtrack where grep does not, so quantified groups are refused rather than
 * risk a search that never ends.
 */
import { ApiError } from '../../shared/api-error'

/** The longest pattern accepted (MUSE searches are words and short phrases). */
const MAX_PATTERN = 512

/** A JavaScript RegExp equivalent to the BRE `pattern`; throws invalid_input when it cannot be one. */
export function breToRegExp(pattern: string): RegExp {
  if (pattern.length > MAX_PATTERN) throw new ApiError(`search pattern longer than ${MAX_PATTERN} characters`, 'invalid_input')
  let out = ''
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (inClass) {
      // inside [...] a backslash is literal in POSIX, and a `]` first in the class is a member
      if (c === ']') {
        if (/^\[\^?$/.test(out.slice(out.lastIndexOf('[')))) out += '\\]'
        else {
          inClass = false
          out += c
        }
      } else out += c === '\\' ? '\\\\' : c
      continue
    }
    if (c === '\\') {
      const n = pattern[++i]
      if (n === undefined) out += '\\\\'
      else if ('(){}|+?'.includes(n)) out += n
      else if (/[1-9]/.test(n)) out += `\\${n}`
      else out += /[\\^$.*[\]/]/.test(n) ? `\\${n}` : n
    } else if (c === '[') {
      inClass = true
      out += c
    } else if ('+?|(){}'.includes(c)) out += `\\${c}`
    else out += c
  }
  if (inClass) throw new ApiError(`invalid search pattern '${pattern}': unmatched [`, 'invalid_input')
  if (/\)(?:[*+?]|\{\d)/.test(out))
    throw new ApiError(`search pattern '${pattern}' repeats a group: not supported (it could run forever)`, 'invalid_input')
  try {
    return new RegExp(out, 'u')
  } catch (err) {
    throw new ApiError(`invalid search pattern '${pattern}': ${(err as Error).message}`, 'invalid_input')
  }
}

/** `grep -n`: `N:line` for every matching line (lines split on `\n`, as grep reads them). */
export function grepLines(text: string, re: RegExp): string[] {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const out: string[] = []
  lines.forEach((line, i) => {
    if (re.test(line)) out.push(`${i + 1}:${line}`)
  })
  return out
}
