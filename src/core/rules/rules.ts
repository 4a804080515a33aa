/**
 * Agent onboarding (spec hub-logstream 7): the shared-brain rules block for one agent identity,
 * wrapped in the `mempalace-shared-brain` start/end markers, and its installation into a harness
 * instruction file: the block is replaced in place when present, appended otherwise, the file is
 * created when missing; writes go through `safeEdit` (compare-and-swap, the rest of the file byte
 * for byte, CRLF files stay CRLF). The text is Muster's own, in `resources/rules/shared-brain.md`.
 */
import { existsSync, promises as fs } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ApiError } from '../../shared/api-error'
import { makeDir } from '../make-dir'
import { safeEdit, type SafeWriteHooks } from '../muse'
import { AGENT_ID_MESSAGE, isAgentId } from '../../shared/agent-id'

/** The end marker (upstream's, exactly). */
export const MARKER_END = '<!-- mempalace-shared-brain:end -->'
const MARKER_START_PREFIX = '<!-- mempalace-shared-brain:start'

/** Harness instruction files, relative to the home folder. */
export const HARNESS_FILES = {
  claude: '.claude/CLAUDE.md',
  codex: '.codex/AGENTS.md',
  opencode: '.config/opencode/AGENTS.md',
  gemini: '.gemini/config/GEMINI.md'
} as const
/** A harness Muster knows the instruction file of. */
export type Harness = keyof typeof HARNESS_FILES

const TEMPLATE = join('resources', 'rules', 'shared-brain.md')

/** The template file: found by walking up from this module (source tree, CLI bundle or package). */
export function templatePath(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, TEMPLATE)
    if (existsSync(candidate)) return candidate
    dir = dirname(dir)
  }
  throw new ApiError(`the rules template ${TEMPLATE} is missing from this Muster installation`, 'internal')
}

/** Throws upstream's message unless `agent` is a single token. */
export function assertAgentId(agent: string): string {
  if (!isAgentId(agent)) throw new ApiError(AGENT_ID_MESSAGE, 'invalid_input')
  return agent
}

/** The block for `agent`: start marker, blank line, the rules, blank line, end marker (no final newline). */
export async function renderRules(agent: string): Promise<string> {
  assertAgentId(agent)
  const body = (await fs.readFile(templatePath(), 'utf8')).replaceAll('<AGENT_ID>', agent)
  const start = `${MARKER_START_PREFIX} (rendered by Muster for ${agent}; replace it with \`muster rules install --agent ${agent}\`, do not edit by hand) -->`
  return [start, '', body.replace(/\s+$/, ''), '', MARKER_END].join('\n')
}

/** What an install did to the file. */
export type InstallOutcome = 'created' | 'appended' | 'replaced' | 'unchanged'

/** `text` with `block` in place of its existing block, or appended after a blank line. Pure. */
export function placeBlock(text: string, block: string, file = 'the file'): { text: string; outcome: InstallOutcome } {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n'
  const ours = block.replace(/\n/g, eol)
  const starts = [...text.matchAll(/<!-- mempalace-shared-brain:start[^\n]*?-->/g)]
  if (starts.length > 1)
    throw new ApiError(
      `${file} holds ${starts.length} shared-brain blocks: keep one (delete the others by hand), then install again`,
      'conflict'
    )
  if (starts.length === 1) {
    const from = starts[0]!.index
    const end = text.indexOf(MARKER_END, from)
    if (end < 0) {
      const line = text.slice(0, from).split('\n').length
      throw new ApiError(
        `${file} has a shared-brain start marker (line ${line}) without its end marker: fix it by hand, nothing was written`,
        'conflict'
      )
    }
    const next = text.slice(0, from) + ours + text.slice(end + MARKER_END.length)
    return { text: next, outcome: next === text ? 'unchanged' : 'replaced' }
  }
  if (text.includes(MARKER_END))
    throw new ApiError(`${file} has a shared-brain end marker without its start marker: fix it by hand, nothing was written`, 'conflict')
  if (text === '') return { text: ours + eol, outcome: 'created' }
  const base = text.endsWith('\n') ? text : text + eol
  return { text: `${base}${eol}${ours}${eol}`, outcome: 'appended' }
}

/** Where an install writes: a harness's file under `home`, or an explicit path. */
export function installTarget(opts: { harness?: string; file?: string; home?: string; cwd?: string }): string {
  if (opts.file && opts.harness) throw new ApiError('give --harness or --file, not both', 'invalid_input')
  if (opts.file) return resolve(opts.cwd ?? process.cwd(), opts.file)
  if (!opts.harness) throw new ApiError('say where to install: --harness claude|codex|opencode|gemini, or --file PATH', 'invalid_input')
  if (!Object.prototype.hasOwnProperty.call(HARNESS_FILES, opts.harness)) {
    throw new ApiError(`unknown harness '${opts.harness}': use ${Object.keys(HARNESS_FILES).join(', ')} (or --file PATH)`, 'invalid_input')
  }
  return join(opts.home ?? homedir(), HARNESS_FILES[opts.harness as Harness])
}

/**
 * Writes the block for `agent` into `file` (created with its folder when missing). Links are
 * written through while they stay inside `home` (dotfiles kept in a repository under home are
 * common); a file outside home may only be written where it is.
 */
export async function installRules(
  agent: string,
  file: string,
  hooks?: SafeWriteHooks,
  home: string = homedir()
): Promise<{ file: string; outcome: InstallOutcome }> {
  const block = await renderRules(agent)
  await makeDir(dirname(file))
  const rel = relative(resolve(home), resolve(file))
  const within = rel && !rel.startsWith('..') && !isAbsolute(rel) ? home : dirname(file)
  let outcome: InstallOutcome = 'unchanged'
  await safeEdit(
    file,
    (text) => {
      const placed = placeBlock(text, block, file)
      outcome = text === '' && placed.outcome === 'created' && existsSync(file) ? 'appended' : placed.outcome
      return placed.outcome === 'unchanged' ? null : placed.text
    },
    { within, create: true, hooks }
  )
  return { file, outcome }
}
