/**
 * `muster approve-hook install`: puts Muster's hook into a harness's settings file, or takes it
 * out (`--uninstall`). Claude Code (`~/.claude/settings.json`) and Codex (`~/.codex/hooks.json`)
 * share one shape: `hooks.<Event>` is an array of `{matcher?, hooks: [{type: "command", command,
 * timeout}]}` groups. Muster's group is the one whose command runs `approve-hook`.
 *
 * The file is edited as text (jsonc-parser finds the nodes, the edits are made by hand), so everything outside
 * Muster's own entry stays byte for byte: other hooks, other settings, comments, indentation, key
 * order, line endings. Installing twice changes nothing; uninstalling after installing gives the
 * original bytes back (an emptied `hooks.<Event>` array and `hooks` object are removed with it).
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { findNodeAtLocation, parseTree, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser'
import { ApiError } from '../../shared/api-error'
import { makeDirSync } from '../make-dir'
import { HookEvent, type HookEventName } from '../../shared/contract/hub-vocabulary'

/** The harnesses the installer knows. */
export type HarnessName = 'claude' | 'codex'

/** Per harness: default settings file (under the home folder) and hook event. */
export const HARNESS_DEFAULTS: Record<HarnessName, { file: string[]; event: HookEventName }> = {
  claude: { file: ['.claude', 'settings.json'], event: HookEvent.preToolUse },
  codex: { file: ['.codex', 'hooks.json'], event: HookEvent.permissionRequest }
}

/** Claude Code's PreToolUse fires for every tool: by default only the ones that change things or reach out ask. */
export const DEFAULT_PRE_TOOL_MATCHER = 'Bash|Edit|MultiEdit|Write|NotebookEdit|WebFetch|mcp__.*'

/** What to install. */
export interface HookEntrySpec {
  event: HookEventName
  /** The full command line the harness runs. */
  command: string
  /** Tool-name regex (PreToolUse); none = every tool. */
  matcher?: string
  /** The harness's own timeout for the hook, in seconds. */
  timeoutSec: number
}

/** What an install or uninstall did. */
export interface HookInstallResult {
  file: string
  event: HookEventName | null
  action: 'installed' | 'updated' | 'unchanged' | 'removed' | 'absent'
}

/** Muster's hook group in a harness's settings. */
export function hookEntry(spec: HookEntrySpec): Record<string, unknown> {
  return {
    ...(spec.matcher ? { matcher: spec.matcher } : {}),
    hooks: [{ type: 'command', command: spec.command, timeout: spec.timeoutSec }]
  }
}

/** True for a hook group whose command runs `approve-hook` (Muster's). */
function isMusterGroup(group: unknown): boolean {
  const hooks = (group as { hooks?: unknown } | null)?.hooks
  return (
    Array.isArray(hooks) &&
    hooks.some(
      (h) =>
        typeof (h as { command?: unknown })?.command === 'string' &&
        /(^|\s|['"/])approve-hook(\s|$)/.test((h as { command: string }).command)
    )
  )
}

/** Formatting of new text, read from the file: indentation unit and line ending. */
function formatOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  '
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n'
  }
}

/** One indentation step of the file. */
function unitOf(fmt: FormattingOptions): string {
  return fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t'
}

/** The indentation of the line holding `offset` (only if the value starts that line, unless `anyway`). */
function indentAt(text: string, offset: number, anyway = false): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1
  const before = text.slice(lineStart, offset)
  return /^[ \t]*$/.test(before) || anyway ? /^[ \t]*/.exec(before)![0] : ''
}

/** An entry as text, its inner lines indented below `indent`. */
function entryText(entry: unknown, indent: string, fmt: FormattingOptions): string {
  return JSON.stringify(entry, null, unitOf(fmt)).split('\n').join(`${fmt.eol}${indent}`)
}

/** Adds `"key": value` as the last property of an object, on its own line, indented like its siblings. */
function addProperty(text: string, object: Node, key: string, value: unknown, fmt: FormattingOptions): string {
  const props = object.children ?? []
  const last = props[props.length - 1]
  if (last) {
    const indent = indentAt(text, last.offset)
    const end = last.offset + last.length
    return `${text.slice(0, end)},${fmt.eol}${indent}${JSON.stringify(key)}: ${entryText(value, indent, fmt)}${text.slice(end)}`
  }
  const outer = indentAt(text, object.offset, true)
  const inner = outer + unitOf(fmt)
  return `${text.slice(0, object.offset)}{${fmt.eol}${inner}${JSON.stringify(key)}: ${entryText(value, inner, fmt)}${fmt.eol}${outer}}${text.slice(object.offset + object.length)}`
}

/** Removes a property: the exact inverse of `addProperty` (an object left empty becomes `{}`). */
function removeProperty(text: string, object: Node, key: string): string {
  const props = object.children ?? []
  const i = props.findIndex((p) => p.children?.[0]?.value === key)
  if (i < 0) return text
  const prop = props[i]!
  if (i > 0) return text.slice(0, props[i - 1]!.offset + props[i - 1]!.length) + text.slice(prop.offset + prop.length)
  if (props.length > 1) return text.slice(0, prop.offset) + text.slice(props[1]!.offset)
  return `${text.slice(0, object.offset)}{}${text.slice(object.offset + object.length)}`
}

/** Reads the settings text and its tree; a missing file is empty; anything but a JSON object is refused. */
function readSettings(file: string): { text: string; root: Node | undefined } {
  if (!existsSync(file)) return { text: '', root: undefined }
  const text = readFileSync(file, 'utf8')
  if (text.trim() === '') return { text, root: undefined }
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false })
  if (errors.length || !root)
    throw new ApiError(
      `cannot edit ${file}: it is not valid JSON (error at offset ${errors[0]?.offset ?? 0}); nothing was changed`,
      'invalid_input'
    )
  if (root.type !== 'object')
    throw new ApiError(`cannot edit ${file}: its top level is not a JSON object; nothing was changed`, 'invalid_input')
  const hooks = findNodeAtLocation(root, ['hooks'])
  if (hooks && hooks.type !== 'object')
    throw new ApiError(`cannot edit ${file}: "hooks" is not an object; nothing was changed`, 'invalid_input')
  return { text, root }
}

/** Index of Muster's group in `hooks.<event>`, or -1; the array node (if any). */
function findGroup(root: Node | undefined, event: string): { array: Node | undefined; index: number } {
  const array = root ? findNodeAtLocation(root, ['hooks', event]) : undefined
  if (!array) return { array, index: -1 }
  if (array.type !== 'array') throw new ApiError(`"hooks.${event}" is not an array; nothing was changed`, 'invalid_input')
  return { array, index: (array.children ?? []).findIndex((c) => isMusterGroup(nodeValue(c))) }
}

function nodeValue(n: Node): unknown {
  switch (n.type) {
    case 'object':
      return Object.fromEntries(
        (n.children ?? []).map((p) => [p.children![0]!.value as string, p.children![1] ? nodeValue(p.children![1]) : null])
      )
    case 'array':
      return (n.children ?? []).map(nodeValue)
    default:
      return n.value
  }
}

/** Writes through a temporary file and a rename, keeping the file's mode. */
function writeAtomically(file: string, text: string): void {
  makeDirSync(dirname(file))
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600
  const tmp = join(dirname(file), `.${Date.now()}.${process.pid}.muster.tmp`)
  writeFileSync(tmp, text, { mode })
  renameSync(tmp, file)
}

/** Adds Muster's hook group (or brings it up to date); idempotent. */
export function installHook(file: string, spec: HookEntrySpec): HookInstallResult {
  const { text, root } = readSettings(file)
  const entry = hookEntry(spec)
  if (!root) {
    writeAtomically(file, JSON.stringify({ hooks: { [spec.event]: [entry] } }, null, 2) + '\n')
    return { file, event: spec.event, action: 'installed' }
  }
  const { array, index } = findGroup(root, spec.event)
  const fmt = formatOf(text)
  let next: string
  if (index >= 0) {
    const node = array!.children![index]!
    if (JSON.stringify(nodeValue(node)) === JSON.stringify(entry)) return { file, event: spec.event, action: 'unchanged' }
    next = text.slice(0, node.offset) + entryText(entry, indentAt(text, node.offset), fmt) + text.slice(node.offset + node.length)
  } else if (array && array.children?.length) {
    // after the last group, on its own line, indented like it
    const last = array.children[array.children.length - 1]!
    const end = last.offset + last.length
    const indent = indentAt(text, last.offset)
    next = `${text.slice(0, end)},${fmt.eol}${indent}${entryText(entry, indent, fmt)}${text.slice(end)}`
  } else if (array) {
    const outer = indentAt(text, array.offset, true)
    const inner = outer + unitOf(fmt)
    next = `${text.slice(0, array.offset)}[${fmt.eol}${inner}${entryText(entry, inner, fmt)}${fmt.eol}${outer}]${text.slice(array.offset + array.length)}`
  } else {
    const hooks = findNodeAtLocation(root, ['hooks'])
    next = hooks ? addProperty(text, hooks, spec.event, [entry], fmt) : addProperty(text, root, 'hooks', { [spec.event]: [entry] }, fmt)
  }
  writeAtomically(file, next)
  return { file, event: spec.event, action: index >= 0 ? 'updated' : 'installed' }
}

/** Removes Muster's hook group from every event (and an array or `hooks` object it leaves empty). */
export function uninstallHook(file: string): HookInstallResult {
  const { text, root } = readSettings(file)
  const hooks = root ? findNodeAtLocation(root, ['hooks']) : undefined
  let next = text
  let removedFrom: HookEventName | null = null
  for (const prop of hooks?.children ?? []) {
    const event = prop.children![0]!.value as string
    for (;;) {
      const { array, index } = findGroup(parseTree(next)!, event)
      if (index < 0) break
      removedFrom ??= event as HookEventName
      const items = array!.children!
      if (items.length === 1) {
        // the array held only Muster's group: the whole property goes (jsonc-parser removes it with its comma)
        next = removeProperty(next, findNodeAtLocation(parseTree(next)!, ['hooks'])!, event)
        break
      }
      // the exact inverse of the insertion: from the previous group's end (or this one's start) to the next one's start (or this one's end)
      const node = items[index]!
      const from = index > 0 ? items[index - 1]!.offset + items[index - 1]!.length : node.offset
      const to = index > 0 ? node.offset + node.length : items[index + 1]!.offset
      next = next.slice(0, from) + next.slice(to)
    }
  }
  if (next === text) return { file, event: null, action: 'absent' }
  const left = findNodeAtLocation(parseTree(next)!, ['hooks'])
  if (left && (left.children ?? []).length === 0) next = removeProperty(next, parseTree(next)!, 'hooks')
  writeAtomically(file, next)
  return { file, event: removedFrom, action: 'removed' }
}

/** Quotes one word for a POSIX shell (the harness runs the command through one). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}
