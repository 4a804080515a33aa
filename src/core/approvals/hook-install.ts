/**
 * Puts Muster's hooks into a harness's settings file, or takes them out. Every harness keeps
 * `hooks.<event>` as an array: of `{matcher?, hooks: [{type: "command", command, ...}]}` groups
 * (Claude Code, Codex, Gemini CLI) or of flat command entries (Copilot CLI's `bash`, Cursor's
 * `command`); each harness's own file (`harnesses/`) builds its entries. Muster's entry is the one whose
 * command runs `approve-hook` (or `session-hook`, for the session-state hooks).
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
import type { HookEntrySpec } from './harnesses'

/** Which of Muster's hooks an entry is: the approvals hook or the session-state hook. */
export type MusterHookKind = 'approve-hook' | 'session-hook'

/** What an install or uninstall did. */
export interface HookInstallResult {
  file: string
  /** The events Muster's entries are in now (install) or were removed from (uninstall). */
  events: string[]
  /** Events Muster's entries of this kind were taken out of (an older install migrated). */
  migrated_from: string[]
  action: 'installed' | 'updated' | 'unchanged' | 'removed' | 'absent'
}

/** The command lines of an array item: a group's `hooks[].command`, or a flat entry's `command`/`bash`. */
function commandsOf(item: unknown): string[] {
  if (!item || typeof item !== 'object') return []
  const o = item as Record<string, unknown>
  const own = [o.command, o.bash].filter((c): c is string => typeof c === 'string')
  const nested = Array.isArray(o.hooks) ? o.hooks.flatMap((h) => commandsOf(h)) : []
  return [...own, ...nested]
}

/** True for an array item whose command runs Muster's `kind` hook. */
export function isMusterEntry(item: unknown, kind: MusterHookKind): boolean {
  const re = new RegExp(`(^|\\s|['"/])${kind}(\\s|$)`)
  return commandsOf(item).some((c) => re.test(c))
}

/** The command line of Muster's `kind` entry in `hooks.<event>` of a file, or null. */
export function installedCommand(file: string, event: string, kind: MusterHookKind): string | null {
  const { root } = readSettings(file)
  const { array, index } = findGroup(root, event, kind)
  if (index < 0) return null
  return commandsOf(nodeValue(array!.children![index]!)).find((c) => c.includes(kind)) ?? null
}

/** Muster's `kind` entry in `hooks.<event>` of a file as installed: its index there and its value; null for none. */
export function findInstalled(file: string, event: string, kind: MusterHookKind): { index: number; entry: Record<string, unknown> } | null {
  const { root } = readSettings(file)
  const { array, index } = findGroup(root, event, kind)
  if (index < 0) return null
  return { index, entry: nodeValue(array!.children![index]!) as Record<string, unknown> }
}

/** The events of a file holding one of Muster's `kind` entries (none for a file that is missing or not JSON). */
export function installedEvents(file: string, kind: MusterHookKind): string[] {
  try {
    return eventsWith(readSettings(file).text, kind)
  } catch {
    return []
  }
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

/** Index of Muster's `kind` entry in `hooks.<event>`, or -1; the array node (if any). */
function findGroup(root: Node | undefined, event: string, kind: MusterHookKind): { array: Node | undefined; index: number } {
  const array = root ? findNodeAtLocation(root, ['hooks', event]) : undefined
  if (!array) return { array, index: -1 }
  if (array.type !== 'array') throw new ApiError(`"hooks.${event}" is not an array; nothing was changed`, 'invalid_input')
  return { array, index: (array.children ?? []).findIndex((c) => isMusterEntry(nodeValue(c), kind)) }
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

/** Puts one entry into `hooks.<event>` (replacing Muster's `kind` entry there); the new text, or null if unchanged. */
function putEntry(text: string, root: Node, spec: HookEntrySpec, kind: MusterHookKind): string | null {
  const { array, index } = findGroup(root, spec.event, kind)
  const fmt = formatOf(text)
  const entry = spec.entry
  if (index >= 0) {
    const node = array!.children![index]!
    if (JSON.stringify(nodeValue(node)) === JSON.stringify(entry)) return null
    return text.slice(0, node.offset) + entryText(entry, indentAt(text, node.offset), fmt) + text.slice(node.offset + node.length)
  }
  if (array && array.children?.length) {
    // after the last item, on its own line, indented like it
    const last = array.children[array.children.length - 1]!
    const end = last.offset + last.length
    const indent = indentAt(text, last.offset)
    return `${text.slice(0, end)},${fmt.eol}${indent}${entryText(entry, indent, fmt)}${text.slice(end)}`
  }
  if (array) {
    const outer = indentAt(text, array.offset, true)
    const inner = outer + unitOf(fmt)
    return `${text.slice(0, array.offset)}[${fmt.eol}${inner}${entryText(entry, inner, fmt)}${fmt.eol}${outer}]${text.slice(array.offset + array.length)}`
  }
  const hooks = findNodeAtLocation(root, ['hooks'])
  return hooks ? addProperty(text, hooks, spec.event, [entry], fmt) : addProperty(text, root, 'hooks', { [spec.event]: [entry] }, fmt)
}

/** Takes Muster's `kind` entries out of `hooks.<event>` (and the property if it held only them). */
function dropEntries(text: string, event: string, kind: MusterHookKind): string {
  let next = text
  for (;;) {
    const { array, index } = findGroup(parseTree(next)!, event, kind)
    if (index < 0) return next
    const items = array!.children!
    if (items.length === 1) {
      // the array held only Muster's entry: the whole property goes
      return removeProperty(next, findNodeAtLocation(parseTree(next)!, ['hooks'])!, event)
    }
    // the exact inverse of the insertion: from the previous item's end (or this one's start) to the next one's start (or this one's end)
    const node = items[index]!
    const from = index > 0 ? items[index - 1]!.offset + items[index - 1]!.length : node.offset
    const to = index > 0 ? node.offset + node.length : items[index + 1]!.offset
    next = next.slice(0, from) + next.slice(to)
  }
}

/** The events holding one of Muster's `kind` entries. */
function eventsWith(text: string, kind: MusterHookKind): string[] {
  const root = text.trim() ? parseTree(text) : undefined
  const hooks = root ? findNodeAtLocation(root, ['hooks']) : undefined
  return (hooks?.children ?? []).map((p) => p.children![0]!.value as string).filter((event) => findGroup(root, event, kind).index >= 0)
}

/** Removes a `hooks` object left empty. */
function dropEmptyHooks(text: string): string {
  const root = parseTree(text)!
  const left = findNodeAtLocation(root, ['hooks'])
  return left && (left.children ?? []).length === 0 ? removeProperty(text, root, 'hooks') : text
}

/**
 * Installs Muster's `kind` entries (or brings them up to date), and takes its `kind` entries out
 * of every other event (an older install is migrated by installing again); idempotent. A new
 * file starts from `base` (e.g. `{"version": 1}`).
 */
export function installHooks(
  file: string,
  specs: readonly HookEntrySpec[],
  kind: MusterHookKind,
  base: Record<string, unknown> = {}
): HookInstallResult {
  const { text, root } = readSettings(file)
  const events = specs.map((s) => s.event)
  if (!root) {
    const hooks = Object.fromEntries(specs.map((s) => [s.event, [s.entry]]))
    writeAtomically(file, JSON.stringify({ ...base, hooks }, null, 2) + '\n')
    return { file, events, migrated_from: [], action: 'installed' }
  }
  const before = eventsWith(text, kind)
  const migrated = before.filter((e) => !events.includes(e))
  let next = text
  for (const event of migrated) next = dropEntries(next, event, kind)
  for (const spec of specs) next = putEntry(next, parseTree(next)!, spec, kind) ?? next
  if (next === text) return { file, events, migrated_from: [], action: 'unchanged' }
  writeAtomically(file, dropEmptyHooks(next))
  return { file, events, migrated_from: migrated, action: events.every((e) => before.includes(e)) ? 'updated' : 'installed' }
}

/** Removes Muster's `kind` entries from every event (and an array or `hooks` object they leave empty). */
export function uninstallHooks(file: string, kind: MusterHookKind): HookInstallResult {
  const { text } = readSettings(file)
  const events = eventsWith(text, kind)
  if (!events.length) return { file, events: [], migrated_from: [], action: 'absent' }
  let next = text
  for (const event of events) next = dropEntries(next, event, kind)
  writeAtomically(file, dropEmptyHooks(next))
  return { file, events, migrated_from: [], action: 'removed' }
}

/** Quotes one word for a POSIX shell (the harness runs the command through one). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}
