/**
 * The fleet scan's parser: a role file's digest straight from its bytes, equal to
 * `digestOf(parseRole(file, bytes.toString('utf8')))` for every input (tested on the corpus, the
 * upstream files, generated fleets and fuzzed bytes), several times faster.
 *
 * Why it is fast: decoding UTF-8 costs more than parsing (66 MB of half-CJK role files take
 * ~300 ms to decode, the parse ~100 ms). Most lines of a role file are prose or TODO items that
 * change nothing but a TODO count, so this driver finds line breaks with `indexOf` on the bytes
 * and decodes only the lines the line machine (role-machine.ts) could act on; every other line is
 * skipped or counted as a TODO item from its bytes.
 *
 * Why it is exact: UTF-8 never has a `\n`, `\r` or ASCII byte inside a multi-byte character, and
 * a decoder resynchronises at each of them, so a line decoded alone equals that line of the
 * decoded file. A line is skipped only when the reference would provably do nothing with it:
 * - no block is open and no footer is awaited (`machine.settled`), else the line is decoded;
 * - a fence candidate (up to 3 spaces, then a backtick or tilde) is decoded; inside a fence any
 *   other line is skipped;
 * - a header candidate (up to 3 spaces, then `#`) and a line starting with 📡 or `>` are decoded;
 * - inside a received or outgoing directives section (`machine.inDirectives`), a table row
 *   candidate (up to 3 spaces, then `|`) and a line whose bytes hold an S-id or a 📡 are decoded;
 * - a line starting with `-`, `*`, `_` or a space is decoded unless a byte proves it is no rule:
 *   an ASCII byte other than `-*_` and blanks, or the lead byte of a character that is not
 *   whitespace (JavaScript's `trim` and `\s` also strip U+00A0, U+1680, U+2000-U+200A, U+2028,
 *   U+2029, U+202F, U+205F, U+3000 and U+FEFF: lead bytes C2, E1, E2, E3, EF);
 * - under a TODO header, a line with `[` is matched against `matchTodo`'s pattern on the bytes
 *   (ASCII blanks; a possible non-ASCII blank, or a `\r`, U+2028 or U+2029 after the box, sends
 *   it to the decoded path).
 */
import { parseL0 } from './l0'
import { parsedRoleName, type RoleDigest } from './parse-role'
import { RoleLineMachine } from './role-machine'

const LF = 0x0a
const CR = 0x0d
const SPACE = 0x20
const LINE_SEP = Buffer.from('\u2028')
const PARA_SEP = Buffer.from('\u2029')

/** Result of matching a TODO item on bytes. */
const enum Todo {
  No,
  Open,
  Done,
  /** Needs the decoded line (non-ASCII blank, or a line terminator the regex's `.` rejects). */
  Unsure
}

/** ASCII characters of JavaScript's `\s` that can occur inside a line (`\n` cannot). */
function isAsciiBlank(b: number): boolean {
  return b === SPACE || b === 0x09 || b === 0x0b || b === 0x0c || b === CR
}

/** Lead bytes of the non-ASCII characters JavaScript's `trim` and `\s` treat as whitespace. */
function isBlankLead(b: number): boolean {
  return b === 0xc2 || b === 0xe1 || b === 0xe2 || b === 0xe3 || b === 0xef
}

/** The next index >= `from` of a byte (or byte sequence) in a buffer, remembered between lines. */
class NextOf {
  private at = -1

  constructor(
    private readonly buf: Buffer,
    private readonly needle: number | Buffer
  ) {}

  /** True when the needle occurs in [s, e). Lines must be asked about in increasing order. */
  within(s: number, e: number): boolean {
    if (this.at < s) {
      const i = this.buf.indexOf(this.needle, s)
      this.at = i < 0 ? this.buf.length : i
    }
    return this.at < e
  }
}

/** The digest of a role file's bytes (file name `file`, like `build.md`). Never throws. */
export function digestRole(file: string, buf: Buffer): RoleDigest {
  const role = parsedRoleName(file)
  const machine = new RoleLineMachine(role, file, false)
  const len = buf.length
  const bracket = new NextOf(buf, 0x5b)
  const cr = new NextOf(buf, CR)
  const lineSep = new NextOf(buf, LINE_SEP)
  const paraSep = new NextOf(buf, PARA_SEP)

  /** `matchTodo`'s `^\s*[-*+]\s+\[([ xX/])\]\s?(.*)$` on the bytes of [s, e). */
  const todoAt = (s: number, e: number): Todo => {
    let i = s
    while (i < e && isAsciiBlank(buf[i]!)) i++
    if (i >= e) return Todo.No
    const marker = buf[i]!
    if (marker >= 0x80) return isBlankLead(marker) ? Todo.Unsure : Todo.No
    if (marker !== 0x2d && marker !== 0x2a && marker !== 0x2b) return Todo.No
    const k = ++i
    while (i < e && isAsciiBlank(buf[i]!)) i++
    if (i < e && buf[i]! >= 0x80 && isBlankLead(buf[i]!)) return Todo.Unsure
    if (i === k || i + 2 >= e || buf[i] !== 0x5b || buf[i + 2] !== 0x5d) return Todo.No
    const box = buf[i + 1]
    if (box !== SPACE && box !== 0x78 && box !== 0x58 && box !== 0x2f) return Todo.No
    const rest = i + 3
    if (cr.within(rest, e) || lineSep.within(rest, e) || paraSep.within(rest, e)) return Todo.Unsure
    return box === 0x78 || box === 0x58 ? Todo.Done : Todo.Open
  }

  /** False when a byte proves [s, e) is no thematic break (see the header comment). */
  const maybeRule = (s: number, e: number): boolean => {
    for (let i = s; i < e; i++) {
      const b = buf[i]!
      if (b === 0x2d || b === 0x2a || b === 0x5f || isAsciiBlank(b)) continue
      if (b < 0x80) return false
      if (b >= 0xc0 && !isBlankLead(b)) return false
    }
    return true
  }

  /** True when [s, e) may hold an S-id (`S` and two ASCII digits) or a 📡 (F0 9F 93 A1): what the unmatched-line check reads. */
  const carriesIdOrAntenna = (s: number, e: number): boolean => {
    for (let i = s; i < e; i++) {
      const b = buf[i]!
      if (b === 0x53 && i + 2 < e && buf[i + 1]! >= 0x30 && buf[i + 1]! <= 0x39 && buf[i + 2]! >= 0x30 && buf[i + 2]! <= 0x39) return true
      if (b === 0xf0 && i + 3 < e && buf[i + 1] === 0x9f && buf[i + 2] === 0x93 && buf[i + 3] === 0xa1) return true
    }
    return false
  }

  /** Feeds or skips line `lineNo`, bytes [s, e) without `\n` or a final `\r`. */
  const step = (s: number, e: number, lineNo: number): void => {
    if (!machine.settled) return machine.line(buf.toString('utf8', s, e), lineNo)
    let j = s
    while (j < e && j - s < 3 && buf[j] === SPACE) j++
    const c = j < e ? buf[j] : -1
    if (c === 0x60 || c === 0x7e) return machine.line(buf.toString('utf8', s, e), lineNo)
    if (machine.fenceOpen) return
    if (c === 0x23) return machine.line(buf.toString('utf8', s, e), lineNo)
    if (machine.inDirectives && (c === 0x7c || carriesIdOrAntenna(s, e))) return machine.line(buf.toString('utf8', s, e), lineNo)
    const first = s < e ? buf[s]! : -1
    if ((first === 0x2d || first === 0x2a || first === 0x5f || first === SPACE) && maybeRule(s, e))
      return machine.line(buf.toString('utf8', s, e), lineNo)
    // a quoted line may open the blockquote receipt form (lint reads it)
    if (first === 0x3e) return machine.line(buf.toString('utf8', s, e), lineNo)
    // 📡 is F0 9F 93 A1
    if (first === 0xf0 && e - s >= 4 && buf[s + 1] === 0x9f && buf[s + 2] === 0x93 && buf[s + 3] === 0xa1)
      return machine.line(buf.toString('utf8', s, e), lineNo)
    if (machine.inTodo && bracket.within(s, e)) {
      const t = todoAt(s, e)
      if (t === Todo.Unsure) return machine.line(buf.toString('utf8', s, e), lineNo)
      if (t !== Todo.No) machine.todo(t === Todo.Done)
    }
  }

  // line 1 starts after a UTF-8 BOM, as splitLines drops U+FEFF
  let s = len >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0
  let lineNo = 0
  let firstBreak = -1
  for (;;) {
    lineNo++
    const nl = buf.indexOf(LF, s)
    const end = nl < 0 ? len : nl
    if (firstBreak < 0) firstBreak = end
    step(s, end > s && buf[end - 1] === CR ? end - 1 : end, lineNo)
    if (nl < 0) break
    s = nl + 1
  }
  // a final newline ends the last line; the empty piece after it is no line (as in parseRole)
  const r = machine.finish(lineNo > 1 && s === len ? lineNo - 1 : lineNo)
  return {
    role,
    file,
    l0: parseL0(buf.toString('utf8', 0, firstBreak)),
    lineCount: lineNo - 1,
    todos: r.todos,
    directives: r.directives,
    notices: r.notices,
    footer: r.footer,
    unmatched: r.unmatched
  }
}
