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

/** A piece of text: plain, one hidden character's escape, or the note that the rest was cut (the UI marks the last two). */
export interface VisiblePart {
  text: string
  hidden: boolean
  /** This part stands for characters not shown: `… 10,485,640 more characters`. */
  cut?: boolean
}

/** Options of `visibleParts`: `max` cuts a longer text (a 10 MB line must not reach the page whole). */
export interface VisiblePartsOptions extends VisibleOptions {
  /** Characters shown at most (UTF-16 units; a surrogate pair is never split); the rest becomes one `cut` part. */
  max?: number
}

/** The first `max` UTF-16 units of `text`, one less when that would split a surrogate pair. */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text
  const code = text.charCodeAt(max - 1)
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)
}

/** The note that stands for what a cut left out. */
export const cutNote = (left: number): string => `… ${left.toLocaleString('en-US')} more character${left === 1 ? '' : 's'}`

/** The text cut into plain runs and escaped hidden characters, for a UI that marks the latter. */
export function visibleParts(text: string, o: VisiblePartsOptions = {}): VisiblePart[] {
  const shown = o.max !== undefined ? cutAt(text, o.max) : text
  const cut = shown.length < text.length ? [{ text: cutNote(text.length - shown.length), hidden: false, cut: true }] : []
  // the common case (every row of a long list): nothing hidden, one part, no regex built
  if (!hasHidden(shown, o)) return [...(shown ? [{ text: shown, hidden: false }] : []), ...cut]
  const re = new RegExp((o.multiline ? MULTI : SINGLE).source, 'gu')
  const parts: VisiblePart[] = []
  let at = 0
  const plain = (end: number): void => {
    if (end > at) {
      const last = parts[parts.length - 1]
      if (last && !last.hidden) last.text += shown.slice(at, end)
      else parts.push({ text: shown.slice(at, end), hidden: false })
    }
  }
  for (const m of shown.matchAll(re)) {
    if (o.keepTabs && m[0] === '\t') continue
    plain(m.index)
    parts.push({ text: escapeChar(m[0]), hidden: true })
    at = m.index + m[0].length
  }
  plain(shown.length)
  return [...parts, ...cut]
}

/**
 * Agent text for an attribute that cannot hold marks (a `title` tooltip, an `aria-label`): hidden
 * characters as their escapes, cut at `max` characters.
 */
export function visibleTitle(text: string, max = 300): string {
  const shown = cutAt(text, max)
  return visible(shown) + (shown.length < text.length ? ` ${cutNote(text.length - shown.length)}` : '')
}
