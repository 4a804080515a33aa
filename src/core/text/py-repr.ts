/** Python's `repr()` for error messages worded the way MemPalace's Python prints them. */

/** Python's `repr()` of a value inside an error message (`'x'`, `"it's"`, `None`, `3`). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  if (typeof value !== 'string') return `<${Array.isArray(value) ? 'list' : typeof value}>`
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'"
  let out = ''
  for (const ch of value) {
    const c = ch.codePointAt(0)!
    if (ch === '\\') out += '\\\\'
    else if (ch === quote) out += '\\' + ch
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) out += '\\x' + c.toString(16).padStart(2, '0')
    else out += ch
  }
  return quote + out + quote
}
