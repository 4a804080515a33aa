/**
 * Lint of MUSE projects. Per role file: missing L0 (error), L0 over 120 chars (warning), L0
 * version differing from the project's latest git tag (warning "L0 stale"; skipped without git
 * or tags), over 500 lines (warning) / 800 (error), directives after the closing footer, lines of a
 * directives section that name an S-id or 📡 but match no form (docs/muse-directive-forms.md). Per
 * project: role files, `.muse/` or `memory/` linked outside the project (never written, see
 * `link-policy.ts`), working files left by a crashed Muster write. Per fleet: unresolvable
 * targets, the same (id, target) pending in two places. `paths.md` is config: a finding only when
 * malformed.
 *
 * Closing footer heuristic: a thematic break (`---`) followed, after blank lines only, by an
 * all-italic line (`*MUSE QA v1.0 — ...*`) or a last-updated line (`最后更新: ...`); it is
 * "closing" when no ordinary section header follows it. Directives below it were appended after
 * the file's end by a tool that did not look for the right section.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { LintFinding } from '../../shared/api'
import { MAX_DIRECTIVE_ID_CHARS, overlongId } from '../../shared/directive-id'
import { latestTag as describeTag } from '../git'
import { collectDirectives, resolveOccurrence } from './directive-index'
import type { FleetView } from './fleet-scan'
import { parsePathsConfig } from './hub-project'
import { outsideLinks } from './link-policy'
import { LINE_ERROR, LINE_WARNING, museDir, roleName } from './role-files'
import { deadAmong } from './leftover-names'
import { deadLeftovers } from './write-leftovers'
import type { ScannedProject } from './fleet-scan'

/** Latest tags by repository, valid while the repository's tag refs are unchanged. */
const tagCache = new Map<string, { stamp: string; tag: string | null }>()

/** A cheap fingerprint of a repository's tags: mtimes of `packed-refs` and `refs/tags`. */
async function tagStamp(dir: string): Promise<string> {
  const times = await Promise.all(
    ['packed-refs', join('refs', 'tags'), 'HEAD'].map((f) =>
      fs.stat(join(dir, '.git', f)).then(
        (s) => s.mtimeMs,
        () => 0
      )
    )
  )
  return times.join(':')
}

/**
 * The project's latest git tag (`git describe --tags --abbrev=0`), or null without git/tags.
 * Cached per repository until its tag refs or HEAD change, so linting a large fleet again does not
 * spawn git for every project.
 */
export async function latestTag(dir: string): Promise<string | null> {
  const stamp = await tagStamp(dir)
  const hit = tagCache.get(dir)
  if (hit && hit.stamp === stamp && stamp !== '0:0:0') return hit.tag
  // without git, outside a repository or without tags there is nothing to compare with
  const tag = await describeTag(dir).catch(() => null)
  tagCache.set(dir, { stamp, tag })
  return tag
}

const bare = (v: string) => v.replace(/^v/i, '')

/** Findings for one project's files (no cross-project checks). */
export async function lintProject(sp: ScannedProject, tag: string | null): Promise<LintFinding[]> {
  const out: LintFinding[] = []
  const name = sp.project.name
  const at = (role: string | null, file: string | null, line: number | null) => ({ project: name, role, file, line })
  for (const u of sp.unreadable)
    out.push({ level: 'error', code: 'unreadable', ...at(null, u.file, null), message: `cannot read ${u.file}: ${u.reason}` })
  for (const r of sp.roles) {
    if (!r.l0) out.push({ level: 'error', code: 'no-l0', ...at(r.role, r.file, 1), message: 'no L0 status line on line 1' })
    else {
      if (r.l0.overLimit)
        out.push({ level: 'warning', code: 'l0-long', ...at(r.role, r.file, 1), message: `L0 is ${r.l0.length} chars (limit 120)` })
      if (tag && r.l0.version && bare(r.l0.version) !== bare(tag)) {
        out.push({
          level: 'warning',
          code: 'l0-stale',
          ...at(r.role, r.file, 1),
          message: `L0 stale: says ${r.l0.version}, latest git tag is ${tag}`
        })
      }
    }
    if (r.lineCount > LINE_ERROR)
      out.push({
        level: 'error',
        code: 'file-too-long',
        ...at(r.role, r.file, null),
        message: `${r.lineCount} lines: archive to .muse/archive/ (limit ${LINE_ERROR})`
      })
    else if (r.lineCount > LINE_WARNING)
      out.push({
        level: 'warning',
        code: 'file-long',
        ...at(r.role, r.file, null),
        message: `${r.lineCount} lines: directives get buried (over ${LINE_WARNING})`
      })
    for (const u of r.unmatched)
      out.push({
        level: 'warning',
        code: 'unmatched-directive',
        ...at(r.role, r.file, u.line),
        message: unmatchedMessage(u)
      })
    if (r.footer?.closing) {
      for (const d of r.directives) {
        if (d.line > r.footer.line)
          out.push({
            level: 'warning',
            code: 'after-footer',
            ...at(r.role, r.file, d.line),
            message: `${d.id}→${d.target || r.role.toUpperCase()} is written after the closing footer (line ${r.footer.line})`
          })
      }
    }
  }
  const listing = sp.listing
  for (const l of await outsideLinks(
    sp.project.path,
    sp.roles.map((r) => r.file),
    listing?.links
  )) {
    const file = l.path.startsWith('.muse/') ? l.path.slice(6) : null
    const message = `${l.path} resolves to ${l.target}, outside the project: Muster lists and reads it but never writes through it`
    out.push({ level: 'warning', code: 'symlink-outside', ...at(file ? roleName(file) : null, file, null), message })
  }
  for (const dir of ['.muse', 'memory']) {
    // the scan's listing of .muse/ already names its working files
    const dead = dir === '.muse' && listing ? deadAmong(listing.workingFiles) : await deadLeftovers(join(sp.project.path, dir))
    for (const l of dead) {
      const message =
        l.kind === 'lost'
          ? `${dir}/${l.name} holds a Muster edit that another writer overwrote in ${dir}/${l.file} and that could not be applied again: merge it by hand (or send again), then delete it`
          : `${dir}/${l.name} is left from an interrupted Muster write (process ${l.pid}): compare it with ${dir}/${l.file}, then delete it`
      out.push({ level: 'warning', code: 'leftover-write', ...at(null, null, null), message })
    }
  }
  let paths: string | null = null
  try {
    if (!listing || listing.config.includes('paths.md')) paths = await fs.readFile(join(museDir(sp.project.path), 'paths.md'), 'utf8')
  } catch {
    /* no paths.md: fine */
  }
  if (paths !== null) {
    const cfg = parsePathsConfig(paths)
    if (Object.keys(cfg.entries).length === 0)
      out.push({
        level: 'warning',
        code: 'paths-malformed',
        ...at(null, 'paths.md', null),
        message: 'paths.md has no KEY: value lines inside a ``` fence'
      })
    for (const line of cfg.malformed)
      out.push({
        level: 'warning',
        code: 'paths-malformed',
        ...at(null, 'paths.md', line),
        message: `paths.md line ${line} is not KEY: value`
      })
  }
  return out
}

/** `fn` with at most `n` calls running at once (the others wait their turn, in order). */
function atMost<A, R>(n: number, fn: (a: A) => Promise<R>): (a: A) => Promise<R> {
  let running = 0
  const waiting: (() => void)[] = []
  return async (a) => {
    // a finishing call hands its place to the next waiting one
    if (running >= n) await new Promise<void>((r) => waiting.push(r))
    else running++
    try {
      return await fn(a)
    } finally {
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}

/** Lints the given projects against the whole fleet (targets resolve fleet-wide). */
export async function lintFleet(
  fleet: FleetView,
  only: string[] | null,
  tagOf: (dir: string) => Promise<string | null> = latestTag
): Promise<LintFinding[]> {
  const chosen = fleet.projects.filter((p) => !only || only.includes(p.project.name))
  const out: LintFinding[] = []
  // git may be spawned per project: 8 at a time; the file checks of all projects run at once
  const tag = atMost(8, tagOf)
  for (const findings of await Promise.all(chosen.map(async (sp) => lintProject(sp, await tag(sp.project.path))))) out.push(...findings)
  const names = new Set(chosen.map((p) => p.project.name))
  for (const sp of chosen) {
    for (const r of sp.roles) {
      for (const d of r.directives) {
        const res = resolveOccurrence(d, sp, fleet)
        if (res.kind === 'unresolved') {
          out.push({
            level: 'warning',
            code: 'unresolved-target',
            project: sp.project.name,
            role: r.role,
            file: r.file,
            line: d.line,
            message: `${d.id}→${d.target}: ${res.reason}`
          })
        }
      }
    }
  }
  for (const g of collectDirectives(fleet)) {
    const pending = g.occurrences.filter((o) => o.mark === 'pending' && o.sectionKind !== 'received')
    if (pending.length < 2 || !pending.some((o) => names.has(o.project))) continue
    const where = pending.map((o) => `${o.project}/${o.file}:${o.line}`).join(', ')
    for (const o of pending.filter((x) => names.has(x.project))) {
      out.push({
        level: 'warning',
        code: 'duplicate-pending',
        project: o.project,
        role: o.role,
        file: o.file,
        line: o.line,
        message: `${g.id}→${g.target} is pending in ${pending.length} places: ${where}`
      })
    }
  }
  return out
}

/** What an unmatched directive line is told: an over-long id is named as such (it is no id, and is not numbered). */
function unmatchedMessage(u: { line: number; text: string }): string {
  const long = overlongId(u.text)
  if (long)
    return `line ${u.line} names an over-long directive id (${long.slice(0, 12)}…, over ${MAX_DIRECTIVE_ID_CHARS} characters): it is not an id, is not listed and does not count for the next ids`
  return `line ${u.line} names a directive (S-id or 📡) but matches no directive form, so it is not listed: ${u.text}`
}
