/**
 * The files a patch touches, read the way `git apply` reads them: `diff --git` headers with their
 * extended lines (new/deleted file, renames, copies, modes, binary), `---`/`+++` lines (also for
 * plain unified diffs without a git header), C-quoted paths with octal escapes, and hunks counted
 * by their `@@` line lengths so a removed line that starts with `-- ` is not taken for a header.
 * Written here rather than taken from a diff-rendering library because the path rules (quoting,
 * `a/` `b/` prefixes, `/dev/null`) decide whether a path leaves the repository, and the parsers
 * renderers ship normalise exactly those details away.
 */
import type { PatchFile } from '../../shared/api'

/** A parsed patch: its files and whether any text looked like neither header nor hunk. */
export interface ParsedPatch {
  files: PatchFile[]
  /** Lines inside hunks with control characters or U+FFFD (invalid UTF-8 when stored). */
  binaryLookingLines: number
  /** Problems git would also trip on (a hunk cut short, a `+++` without `---`). */
  problems: string[]
  /** Files the patch makes symbolic links (mode 120000), with the target it gives them (null: none shown). */
  symlinks: { path: string; target: string | null }[]
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\x00-\x08\x0e-\x1f\x7f\ufffd]/

/** Decodes a git C-quoted path (`"a/t\303\251st"`); other paths come back as they are. */
export function unquotePath(raw: string): string {
  if (!raw.startsWith('"') || !raw.endsWith('"') || raw.length < 2) return raw
  const bytes: number[] = []
  const body = raw.slice(1, -1)
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 }
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!
    if (ch !== '\\') {
      for (const b of Buffer.from(ch, 'utf8')) bytes.push(b)
      continue
    }
    const next = body[i + 1] ?? ''
    if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0]
      bytes.push(parseInt(oct, 8) & 0xff)
      i += oct.length
    } else if (next in simple) {
      bytes.push(simple[next]!)
      i += 1
    } else {
      bytes.push(92)
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

/** Splits `a/x b/y` (either side possibly quoted) into its two paths, prefixes kept. */
function splitGitHeader(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest, 0)
    if (end < 0) return null
    const second = rest.slice(end + 2)
    return [unquotePath(rest.slice(0, end + 1)), unquotePath(second)]
  }
  if (rest.endsWith('"')) {
    const start = rest.lastIndexOf(' "')
    if (start < 0) return null
    return [rest.slice(0, start), unquotePath(rest.slice(start + 1))]
  }
  // unquoted on both sides: the names are equal unless renamed, so split where the halves match
  const half = (rest.length - 1) / 2
  if (Number.isInteger(half) && rest[half] === ' ' && rest.slice(2, half) === rest.slice(half + 3))
    return [rest.slice(0, half), rest.slice(half + 1)]
  const i = rest.indexOf(' b/')
  return i < 0 ? null : [rest.slice(0, i), rest.slice(i + 1)]
}

function closingQuote(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === '\\') i++
    else if (s[i] === '"') return i
  }
  return -1
}

/** A `---`/`+++` path: quoted or not, a trailing tab + timestamp dropped, `/dev/null` = none. */
function markerPath(rest: string): string | null {
  const raw = rest.startsWith('"') ? unquotePath(rest.slice(0, closingQuote(rest, 0) + 1)) : rest.split('\t')[0]!.replace(/\s+$/, '')
  return raw === '/dev/null' ? null : raw
}

/** Drops git's one-level `a/` or `b/` prefix (what `git apply -p1` does). */
function strip(path: string | null): string | null {
  if (path === null) return null
  const i = path.indexOf('/')
  return i < 0 ? path : path.slice(i + 1)
}

interface Draft {
  old_path: string | null
  new_path: string | null
  status: PatchFile['status'] | null
  binary: boolean
  additions: number
  deletions: number
  git: boolean
  /** The new version is a symbolic link (mode 120000); its target is the hunk's added line. */
  link: boolean
  linkTarget: string | null
}

/** Parses patch text into its files (see the file comment for what is understood). */
export function parsePatch(text: string): ParsedPatch {
  const lines = text.split('\n')
  const files: PatchFile[] = []
  const problems: string[] = []
  let cur: Draft | null = null
  let oldLeft = 0
  let newLeft = 0
  let binaryLookingLines = 0
  const symlinks: ParsedPatch['symlinks'] = []

  const finish = (): void => {
    if (!cur) return
    if (cur.link && (cur.new_path ?? cur.old_path)) symlinks.push({ path: (cur.new_path ?? cur.old_path)!, target: cur.linkTarget })
    const status: PatchFile['status'] =
      cur.status ??
      (cur.old_path === null ? 'added' : cur.new_path === null ? 'deleted' : cur.old_path !== cur.new_path ? 'renamed' : 'modified')
    files.push({
      old_path: cur.old_path,
      new_path: cur.new_path,
      status,
      binary: cur.binary,
      additions: cur.additions,
      deletions: cur.deletions
    })
    cur = null
  }

  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.replace(/\r$/, '')
    if (cur && (oldLeft > 0 || newLeft > 0)) {
      // inside a hunk: every line is context, removal, addition or "\ No newline at end of file"
      const c = line[0]
      if (c === '\\') continue
      if (c === '+') {
        cur.additions++
        newLeft--
        if (cur.link && cur.linkTarget === null) cur.linkTarget = line.slice(1)
      } else if (c === '-') {
        cur.deletions++
        oldLeft--
      } else if (c === ' ' || line === '') {
        oldLeft--
        newLeft--
      } else {
        problems.push(`hunk ends early at line ${n + 1}`)
        oldLeft = newLeft = 0
        n--
        continue
      }
      if (CONTROL_RE.test(line.slice(1))) binaryLookingLines++
      continue
    }
    if (line.startsWith('diff --git ')) {
      finish()
      const pair = splitGitHeader(line.slice('diff --git '.length))
      cur = {
        old_path: strip(pair?.[0] ?? null),
        new_path: strip(pair?.[1] ?? null),
        status: null,
        binary: false,
        additions: 0,
        deletions: 0,
        git: true,
        link: false,
        linkTarget: null
      }
      if (!pair) problems.push(`unreadable diff header at line ${n + 1}`)
      continue
    }
    if (line.startsWith('--- ') && lines[n + 1]?.startsWith('+++ ')) {
      const oldP = strip(markerPath(line.slice(4)))
      const newP = strip(markerPath(lines[n + 1]!.replace(/\r$/, '').slice(4)))
      if (!cur || !cur.git || cur.additions + cur.deletions > 0) {
        finish()
        cur = {
          old_path: oldP,
          new_path: newP,
          status: null,
          binary: false,
          additions: 0,
          deletions: 0,
          git: false,
          link: false,
          linkTarget: null
        }
      } else {
        cur.old_path = oldP
        cur.new_path = newP
      }
      n++
      continue
    }
    const hunk = HUNK_RE.exec(line)
    if (hunk && cur) {
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2])
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4])
      continue
    }
    if (!cur) continue
    if (/^(new file mode|new mode) 120000$/.test(line) || /^index [0-9a-f]+\.\.[0-9a-f]+ 120000$/.test(line)) cur.link = true
    if (line.startsWith('new file mode ')) {
      cur.status = 'added'
      cur.old_path = null
    } else if (line.startsWith('deleted file mode ')) {
      cur.status = 'deleted'
      cur.new_path = null
    } else if (line.startsWith('rename from ')) {
      cur.status = 'renamed'
      cur.old_path = unquotePath(line.slice('rename from '.length))
    } else if (line.startsWith('rename to ')) {
      cur.new_path = unquotePath(line.slice('rename to '.length))
    } else if (line.startsWith('copy from ')) {
      cur.status = 'copied'
      cur.old_path = unquotePath(line.slice('copy from '.length))
    } else if (line.startsWith('copy to ')) {
      cur.new_path = unquotePath(line.slice('copy to '.length))
    } else if (line.startsWith('old mode ') && cur.status === null) {
      cur.status = 'mode'
    } else if (line === 'GIT binary patch' || (line.startsWith('Binary files ') && line.endsWith(' differ'))) {
      cur.binary = true
    }
  }
  if (oldLeft > 0 || newLeft > 0) problems.push('the last hunk is shorter than its @@ header says')
  finish()
  for (const f of files) if (f.status === 'mode' && f.additions + f.deletions > 0) f.status = 'modified'
  return { files, binaryLookingLines, problems, symlinks }
}
