/**
 * Hostile text shown safely: what an agent writes (tool input, bodies, names) may hold terminal
 * escapes (`\x1b[2K` erases a line, OSC retitles the window), a carriage return that overwrites
 * what came before, bidi controls that reorder what is read (`echo safe #\u202e ; rm -rf ~`) and
 * zero-width characters. Every such character is shown as a visible escape (`\x1b`, `\r`,
 * `\u202e`) in the CLI, and marked in the UI (`visibleParts`), wherever the operator decides.
 * Pure (no Node): the CLI and the screens share it.
 */

/**
 * Bidi controls, zero-width and other invisible format characters, line/paragraph separators,
 * tag characters and variation selectors, lone surrogates. A zero-width joiner or a variation
 * selector inside an emoji sequence (👩‍💻, ❤️) is left alone.
 */
const INVISIBLE =
  '\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b\\u200c\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0d\\ufeff\\uffa0\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}\\ud800-\\udfff'
const EMOJI = '\\p{Extended_Pictographic}'
const JOINERS = `(?<![${EMOJI}\\ufe0f\\u{1f3fb}-\\u{1f3ff}])\\u200d|\\u200d(?!${EMOJI})|(?<!${EMOJI})[\\ufe0e\\ufe0f]`

const pattern = (keepNewlines: boolean): RegExp =>
  new RegExp(`${JOINERS}|[${keepNewlines ? '\\x00-\\x09\\x0b-\\x1f' : '\\x00-\\x1f'}\\x7f-\\x9f${INVISIBLE}]`, 'gu')
const SINGLE = pattern(false)
const MULTI = pattern(true)

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/** The visible escape of one hidden character: `\r`, `\x1b`, `\u202e`, `\u{e0041}`. */
export function escapeChar(ch: string): string {
  if (NAMED[ch]) return NAMED[ch]
  const cp = ch.codePointAt(0)!
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, '0')}`
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`
  return `\\u{${cp.toString(16)}}`
}

/** Options of `visible` and `visibleParts`. */
export interface VisibleOptions {
  /** Keep line breaks (`\n`) as they are: for multi-line bodies printed as blocks. */
  multiline?: boolean
  /** Keep tabs as they are (upstream's own output prints them raw; a tab hides nothing). */
  keepTabs?: boolean
}

/** The text with every control, escape, bidi and zero-width character shown as a visible escape. */
export function visible(text: string, o: VisibleOptions = {}): string {
  return text.replace(o.multiline ? MULTI : SINGLE, (ch) => (o.keepTabs && ch === '\t' ? ch : escapeChar(ch)))
}

/** True when the text holds any character `visible` would escape. */
export function hasHidden(text: string, o: VisibleOptions = {}): boolean {
  const re = o.multiline ? MULTI : SINGLE
  re.lastIndex = 0
  const hit = re.test(text)
  re.lastIndex = 0
  return hit
}

/** A piece of text: plain, or one hidden character's escape (the UI marks these). */
export interface VisiblePart {
  text: string
  hidden: boolean
}

/** The text cut into plain runs and escaped hidden characters, for a UI that marks the latter. */
export function visibleParts(text: string, o: VisibleOptions = {}): VisiblePart[] {
  const re = new RegExp((o.multiline ? MULTI : SINGLE).source, 'gu')
  const parts: VisiblePart[] = []
  let at = 0
  for (const m of text.matchAll(re)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), hidden: false })
    parts.push({ text: escapeChar(m[0]), hidden: true })
    at = m.index + m[0].length
  }
  if (at < text.length) parts.push({ text: text.slice(at), hidden: false })
  return parts
}
