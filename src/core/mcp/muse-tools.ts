/**
 * MUSE's six MCP tools on one project root, with the output texts of MUSE's own server
 * (`fixtures/muse-mcp/muse-mcp-transcript.out.jsonl`) and the bytes its writes append, minus its
 * bugs: role names are validated (any name the role list shows, Unicode included; no separators,
 * no `..`, no control characters, no symlink leaving the project,
 * `paths.md` is config, not a role); the long-term search output is well-formed; writes go through
 * `safeEdit` (an agent's concurrent edit is never lost); directive ids and titles are checked, and
 * so are the invocation rules of what is sent. Nothing here writes to stdout.
 */
import { promises as fs } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { DIRECTIVE_ID_RE } from '../../shared/directive-id'
import { assertInvocationsAllowed } from '../invoke'
import { makeDir } from '../make-dir'
import {
  ymd,
  ymdhm,
  parseL0,
  DAILY_LOG,
  assertRoleName,
  countLines,
  findRoleFile,
  listRoleFiles,
  museDir,
  roleName,
  safeEdit
} from '../muse'
import { breToRegExp, grepLines } from './grep'

/** What a tool answers: one text, an error or not. */
export interface ToolText {
  text: string
  isError?: boolean
}

const fail = (text: string): ToolText => ({ text, isError: true })
/** Shell command substitution drops trailing newlines; MUSE's texts are built that way. */
const chomp = (s: string) => s.replace(/\n+$/, '')

/**
 * An edit appending `entry` (in the file's line endings) once: `safeEdit` may re-apply an edit on
 * fresher content, so it appends only while the file holds no more copies than at the first read.
 */
function appendOnce(entry: string): (text: string) => string | null {
  let before: number | null = null
  return (text) => {
    const part = /\r\n/.test(text) ? entry.replace(/\n/g, '\r\n') : entry
    let copies = 0
    for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) copies++
    before ??= copies
    return copies > before ? null : text + part
  }
}

/** The role files of the project, sorted, with their text. */
async function roles(root: string): Promise<{ role: string; file: string; text: string }[]> {
  const files = await listRoleFiles(root)
  const out = await Promise.all(
    files.map(async (file) => ({
      role: roleName(file),
      file,
      text: await fs.readFile(join(museDir(root), file), 'utf8').catch(() => null)
    }))
  )
  return out.filter((r): r is { role: string; file: string; text: string } => r.text !== null)
}

/** `muse_get_status`: `[role] <L0 body>` per role file, `no L0` where there is none. */
export async function getStatus(root: string): Promise<ToolText> {
  const lines = (await roles(root)).map((r) => `[${r.role}] ${parseL0(r.text)?.body ?? 'no L0'}`)
  return { text: lines.length ? lines.join('\n') : 'No role files found in .muse/' }
}

/** `muse_list_roles`: `- **role** (N lines): <L0 body>`. */
export async function listRoles(root: string): Promise<ToolText> {
  const lines = (await roles(root)).map((r) => `- **${r.role}** (${countLines(r.text)} lines): ${parseL0(r.text)?.body ?? ''}`)
  return { text: lines.length ? lines.join('\n') : 'No role files found.' }
}

/** The role file for `role`, checked: plain name, exists, not a link out of the project. */
async function roleFileOf(root: string, role: string): Promise<{ path: string; file: string } | ToolText> {
  try {
    assertRoleName(role)
  } catch {
    return fail(`ERROR: Invalid role name '${role}'. Use alphanumeric names like: build, growth, qa, gm`)
  }
  const files = await listRoleFiles(root)
  const file = findRoleFile(files, role)
  if (!file) return fail(`ERROR: Role file '${role}.md' not found. Available roles:\n${files.map((f) => `  - ${roleName(f)}`).join('\n')}`)
  const path = join(museDir(root), file)
  const real = await fs.realpath(path)
  const inside = relative(await fs.realpath(root), real)
  if (inside.startsWith('..') || inside.startsWith(sep) || resolve(inside) === inside)
    return fail(`ERROR: Role file '${file}' points outside the project: refused`)
  return { path, file }
}

/** `muse_get_role`: the file's text, exactly. */
export async function getRole(root: string, role: string): Promise<ToolText> {
  const found = await roleFileOf(root, role)
  if ('text' in found) return found
  return { text: await fs.readFile(found.path, 'utf8') }
}

/** The ids MUSE's directive protocol uses (`S042`, `S040v3`, `S229+`), bounded. */
const DIRECTIVE_ID = DIRECTIVE_ID_RE

/**
 * `muse_send_directive`: appends MUSE's HEAD form to the END of the target's file (what MUSE's
 * server writes: `### 📡 S042→QA (YYYY-MM-DD HH:MM) — 🟡 待处理`, `> title`, body).
 */
export async function sendDirective(
  root: string,
  a: { target_role: string; directive_id: string; title: string; body: string },
  now: Date
): Promise<ToolText> {
  const found = await roleFileOf(root, a.target_role)
  if ('text' in found)
    return fail(
      found.text.startsWith('ERROR: Invalid')
        ? `ERROR: Invalid target role '${a.target_role}'`
        : `ERROR: Target role file '${a.target_role}.md' not found`
    )
  if (!DIRECTIVE_ID.test(a.directive_id)) return fail(`ERROR: Invalid directive id '${a.directive_id}': use S + 2-4 digits (e.g. S042)`)
  if (!a.title.trim() || /[\r\n]/.test(a.title)) return fail('ERROR: The title must be one non-empty line')
  try {
    assertInvocationsAllowed(`${a.title}\n${a.body}`)
  } catch (err) {
    return fail(`ERROR: ${(err as Error).message}`)
  }
  const stamp = ymdhm(now)
  const entry =
    chomp(`\n### 📡 ${a.directive_id}→${a.target_role.toUpperCase()} (${stamp}) — 🟡 待处理\n\n> ${a.title}\n\n${a.body}\n`) + '\n'
  await safeEdit(found.path, appendOnce(entry), { within: root })
  return { text: `✅ Directive ${a.directive_id} sent to ${a.target_role} (${stamp})` }
}

/** `muse_write_memory`: appends `## section` + content (or the content) to today's log, created if missing. */
export async function writeMemory(root: string, a: { content: string; section?: string }, now: Date): Promise<ToolText> {
  if (a.section !== undefined && /[\r\n]/.test(a.section)) return fail('ERROR: The section must be one line')
  const day = ymd(now)
  const dir = join(root, 'memory')
  await makeDir(dir)
  const entry = chomp(a.section ? `\n## ${a.section}\n\n${a.content}\n` : `\n${a.content}\n`) + '\n'
  await safeEdit(join(dir, `${day}.md`), appendOnce(entry), { within: root, create: true })
  return { text: `✅ Written to memory/${day}.md` }
}

/**
 * `muse_search_memory`: grep over MEMORIES.md and memory/*.md (all), the last 3 days (recent),
 * MEMORIES.md (longterm). Any other scope searches as `all` does (MUSE's `all|*)` case) and is
 * named as given in the no-result text.
 */
export async function searchMemory(root: string, a: { query: string; scope?: string }, now: Date): Promise<ToolText> {
  const given = a.scope ?? 'all'
  const scope = given === 'recent' || given === 'longterm' ? given : 'all'
  let re: RegExp
  try {
    re = breToRegExp(a.query)
  } catch (err) {
    return fail(`ERROR: ${(err as ApiError).message}`)
  }
  const read = (p: string) => fs.readFile(p, 'utf8').catch(() => null)
  const sections: string[] = []
  const search = async (path: string, label: string) => {
    const text = await read(path)
    const hits = text === null ? [] : grepLines(text, re)
    if (hits.length) sections.push(`=== ${label} ===\n${hits.join('\n')}`)
  }
  if (scope === 'longterm' || scope === 'all') await search(join(root, 'MEMORIES.md'), 'MEMORIES.md')
  if (scope === 'all') {
    const names = (await fs.readdir(join(root, 'memory'), { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isFile() && e.name.endsWith('.md'))
      .map((e) => e.name)
      .sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))
    for (const name of names) await search(join(root, 'memory', name), name)
  }
  if (scope === 'recent') {
    for (let i = 0; i < 3; i++) {
      const d = new Date(now)
      d.setDate(d.getDate() - i)
      const name = `${ymd(d)}.md`
      if (DAILY_LOG.test(name)) await search(join(root, 'memory', name), `memory/${name}`)
    }
  }
  if (!sections.length) return { text: `No results found for '${a.query}' in scope '${given}'` }
  return { text: sections.join('\n\n') }
}

/** Checks that `root` is a MUSE project (has `.muse/`); returns its absolute path. */
export async function projectRoot(root: string): Promise<string> {
  const abs = resolve(root)
  const st = await fs.stat(museDir(abs)).catch(() => null)
  if (!st?.isDirectory()) throw new ApiError(`No .muse/ directory found in ${abs}. Run MUSE setup first.`, 'not_found')
  return abs
}
