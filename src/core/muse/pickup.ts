/**
 * Pickup (spec section 4): the two edits that move a directive from 🟡 to ✅.
 * 1. the target's file gets `### S042→MUSE/BUILD (<send date>) — ✅ 已接收 <now>` + the body as a
 *    blockquote, appended inside its received section (created as `## 📡 已接收战略指令`);
 * 2. the source line's 🟡 becomes ✅ with ` — 已传递 <now>`.
 * A pickup changes both files or neither: both files are read (settled, valid UTF-8) and both
 * edits computed before either is written; the receipt is written first, and when the source edit
 * then fails the receipt is removed again by its exact inverse, and the error says so. A crash in
 * between leaves a half-finished pickup that the next call completes (step 2 only). When both live
 * in one file, one edit does both. Each edit is recomputed from fresh content inside `safeEdit`.
 *
 * A table row or announcement heading in the target's own file (docs/muse-directive-forms.md) is
 * the target's own record: with no 🟡 sender line elsewhere in the project, its 🟡 is marked
 * `✅ 已接收 <now>` where it stands, one edit of one file.
 */
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'
import type { DirectiveOccurrence, LocatedOccurrence, Resolution } from '../../shared/api'
import { canonicalTarget, isAtTarget, isReceipt, normaliseTarget, resolveOccurrence, resolveTarget } from './directive-index'
import type { FleetView } from './fleet-scan'
import { appendPoint, insertBlockAfter, markDelivered, markReceivedHere, quote, undoInsertion, ymd, ymdhm } from './edits'
import { parseRole } from './parse-role'
import { museDir } from './role-files'
import { readEditable, safeEdit, type SafeWriteHooks } from './safe-write'
import { splitLines } from '../text'

/** The received-directives header Muster creates when a target file has none. */
export const RECEIVED_HEADER = '## 📡 已接收战略指令'

/** Input of a pickup. */
export interface PickupRequest {
  /** Project whose role files hold the 🟡 source line. */
  project: string
  id: string
  target: string
  now: Date
  hooks?: SafeWriteHooks
}

/** What a pickup did. */
export interface PickupOutcome {
  id: string
  target: string
  outcome: 'picked-up' | 'completed' | 'already-done'
  receiptFile: string
  sourceFile: string
  at: string
}

type RoleRes = Extract<Resolution, { kind: 'role' }>

/** Performs (or completes) a pickup. */
export async function pickup(fleet: FleetView, req: PickupRequest): Promise<PickupOutcome> {
  const written = normaliseTarget(req.target)
  if (!written) throw new ApiError(`invalid target '${req.target}': use ROLE, PROJECT/ROLE or ALL`, 'invalid_input')
  const res = resolveTarget(written, fleet)
  if (res.kind === 'unresolved') throw new ApiError(`unknown target ${written}: ${res.reason}`, 'not_found')
  if (res.kind === 'all')
    throw new ApiError(
      `${req.id}→ALL is addressed to every project: pick it up per role by sending a receipt, not with pickup`,
      'invalid_input'
    )
  const target = canonicalTarget(res, written)
  const sp = fleet.projects.find((p) => p.project.name.toLowerCase() === req.project.toLowerCase())
  if (!sp) throw new ApiError(`unknown project '${req.project}' (see: muster projects list)`, 'not_found')
  const matches = (d: DirectiveOccurrence) => d.id === req.id && sameResolution(resolveOccurrence(d, sp, fleet), res)
  const candidates: LocatedOccurrence[] = []
  for (const r of sp.roles) for (const d of r.directives) if (matches(d)) candidates.push({ ...d, project: sp.project.name })
  const here = candidates.filter((o) => isOwnRecord(o) && isAtTarget(o, res))
  const sources = candidates.filter((o) => !here.includes(o) && !(isAtTarget(o, res) && o.sectionKind === 'received'))
  if (!sources.some((o) => o.mark === 'pending') && here.length > 0) return markHere(fleet, req, res, target, here)
  if (sources.length === 0) throw new ApiError(`no directive ${req.id}→${target} in project ${sp.project.name}`, 'not_found')
  const pending = sources.filter((o) => o.mark === 'pending')
  if (pending.length > 1) {
    const where = pending.map((o) => `${o.file}:${o.line}`).join(', ')
    throw new ApiError(`${req.id}→${target} is pending in ${pending.length} places (${where}): resolve the duplicate first`, 'conflict')
  }
  const source = pending[0] ?? sources[0]!
  const targetProject = fleet.projects.find((p) => p.project.name === res.project)!
  const receiptPath = join(museDir(targetProject.project.path), res.file)
  const sourcePath = join(museDir(sp.project.path), source.file)
  const at = ymdhm(req.now)
  const base = {
    id: req.id,
    target,
    receiptFile: `${res.project}/.muse/${res.file}`,
    sourceFile: `${sp.project.name}/.muse/${source.file}`,
    at
  }
  if (source.mark !== 'pending') return { ...base, outcome: 'already-done' }

  const receiptEdit = (text: string) => addReceipt(text, res, req.id, target, source, req.now)
  const flipEdit = (text: string) => flipSource(text, source.file, req.id, res, fleet, at)
  const key = `${req.id}→${target}`
  const receiptRoot = targetProject.project.path
  const sourceRoot = sp.project.path

  // both files read and both edits computed before either is written
  const [receiptText, sourceText] = await Promise.all([readEditable(receiptPath, receiptRoot), readEditable(sourcePath, sourceRoot)]).catch(
    (err: unknown) => {
      throw failed(key, err, 'nothing changed')
    }
  )
  const needReceipt = receiptEdit(receiptText) !== null
  if (receiptPath === sourcePath) {
    const both = (text: string) => {
      const withReceipt = receiptEdit(text) ?? text
      const next = flipEdit(withReceipt) ?? withReceipt
      return next === text ? null : next
    }
    if (both(receiptText) === null) return { ...base, outcome: 'already-done' }
    const r = await safeEdit(receiptPath, both, { within: receiptRoot, hooks: req.hooks }).catch((err: unknown) => {
      throw failed(key, err, 'nothing changed')
    })
    return { ...base, outcome: !r.changed ? 'already-done' : needReceipt ? 'picked-up' : 'completed' }
  }
  const needFlip = flipEdit(sourceText) !== null
  if (!needReceipt && !needFlip) return { ...base, outcome: 'already-done' }

  const receipt = needReceipt
    ? await safeEdit(receiptPath, receiptEdit, { within: receiptRoot, hooks: req.hooks }).catch((err: unknown) => {
        throw failed(key, err, 'nothing changed')
      })
    : null
  try {
    const flipped = await safeEdit(sourcePath, flipEdit, { within: sourceRoot, hooks: req.hooks })
    if (!flipped.changed && !receipt?.changed) return { ...base, outcome: 'already-done' }
  } catch (err) {
    if (!receipt?.changed || !receipt.applied)
      throw failed(key, err, receipt ? `${base.receiptFile} already had the receipt: nothing changed` : 'nothing changed')
    try {
      await safeEdit(receiptPath, undoInsertion(receipt.applied.before, receipt.applied.after), { within: receiptRoot, hooks: req.hooks })
    } catch (undoErr) {
      throw failed(
        key,
        err,
        `the receipt written to ${base.receiptFile} could not be removed again (${(undoErr as Error).message}): remove its "### ${key} (…) — ✅ 已接收 ${at}" block by hand`
      )
    }
    throw failed(key, err, `the receipt written to ${base.receiptFile} was removed again: nothing changed`)
  }
  return { ...base, outcome: receipt?.changed ? 'picked-up' : 'completed' }
}

/** A row or announcement: the target's own record of a directive, marked where it stands. */
function isOwnRecord(o: DirectiveOccurrence): boolean {
  return o.form === 'row' || o.form === 'announce'
}

/** Pickup of a row or announcement in the target's file: its 🟡 becomes `✅ 已接收 <now>` in place. */
async function markHere(
  fleet: FleetView,
  req: PickupRequest,
  res: RoleRes,
  target: string,
  here: LocatedOccurrence[]
): Promise<PickupOutcome> {
  const pending = here.filter((o) => o.mark === 'pending')
  if (pending.length > 1) {
    const where = pending.map((o) => `${o.file}:${o.line}`).join(', ')
    throw new ApiError(`${req.id}→${target} is pending in ${pending.length} places (${where}): resolve the duplicate first`, 'conflict')
  }
  const record = pending[0] ?? here[0]!
  const sp = fleet.projects.find((p) => p.project.name === res.project)!
  const at = ymdhm(req.now)
  const file = `${res.project}/.muse/${record.file}`
  const base = { id: req.id, target, receiptFile: file, sourceFile: file, at }
  if (record.mark !== 'pending') return { ...base, outcome: 'already-done' }
  const edit = (text: string): string | null => {
    const parsed = parseRole(record.file, text)
    const d = parsed.directives.find(
      (x) => x.id === req.id && isOwnRecord(x) && x.mark === 'pending' && sameResolution(resolveOccurrence(x, sp, fleet), res)
    )
    const statusAt = d ? parsed.statusAt.get(d.line) : undefined
    if (!d || statusAt === undefined) return null
    return markReceivedHere(text, parsed.statusLine.get(d.line) ?? d.line, statusAt, at)
  }
  const r = await safeEdit(join(museDir(sp.project.path), record.file), edit, { within: sp.project.path, hooks: req.hooks }).catch(
    (err: unknown) => {
      throw failed(`${req.id}→${target}`, err, 'nothing changed')
    }
  )
  return { ...base, outcome: r.changed ? 'picked-up' : 'already-done' }
}

/** True when two resolutions name the same role of the same project. */
function sameResolution(a: Resolution, b: RoleRes): boolean {
  return a.kind === 'role' && a.project === b.project && a.role === b.role
}

/** A pickup error that says what happened to the files. */
function failed(key: string, err: unknown, state: string): ApiError {
  const code = err instanceof ApiError ? err.code : 'internal'
  const why = (err as Error).message
    .replace(/(; try again)?$/, '')
    .replace(/[:;] (not changed|nothing written)(, try again in a few seconds)?$/, '')
  return new ApiError(`pickup of ${key} failed: ${why}; ${state}`, code)
}

function sameTarget(written: string, res: RoleRes, fleet: FleetView): boolean {
  const r = resolveTarget(written, fleet)
  return r.kind === 'role' && r.project === res.project && r.role === res.role
}

/** Edit 1: the receipt in the target's received section; null when a receipt already exists. */
export function addReceipt(text: string, res: RoleRes, id: string, target: string, source: DirectiveOccurrence, now: Date): string | null {
  const parsed = parseRole(res.file, text)
  const already = parsed.directives.some((d) => d.id === id && d.sectionKind === 'received' && isReceipt(d) && sameWritten(d.target, res))
  if (already) return null
  const lines = splitLines(text)
  const section = parsed.sections.find((s) => s.kind === 'received')
  const sent = source.date ?? ymd(now)
  // SPEC/LOOSE: the title in bold, then the blockquote body; HEAD: its block already starts with the title
  const text2 = source.form === 'head' || !source.title ? source.body : `**${source.title}**${source.body ? '\n' + source.body : ''}`
  const block = [`### ${id}→${target} (${sent}) — ✅ 已接收 ${ymdhm(now)}`, ...quote(text2)]
  const after = appendPoint(parsed, lines, section)
  return insertBlockAfter(text, after, section ? block : [RECEIVED_HEADER, '', ...block])
}

/** A receipt's written target names the same role (`MUSE/BUILD`, or bare `BUILD` in the target's own file). */
function sameWritten(written: string, res: RoleRes): boolean {
  const t = written.toUpperCase()
  return t === `${res.key}/${res.role.toUpperCase()}` || t === res.role.toUpperCase()
}

/** Edit 2: 🟡 -> ✅ on the (re-parsed) source line; null when it is no longer pending. */
export function flipSource(text: string, file: string, id: string, res: RoleRes, fleet: FleetView, at: string): string | null {
  const parsed = parseRole(file, text)
  const d = parsed.directives.find(
    (x) => x.id === id && x.mark === 'pending' && x.sectionKind !== 'received' && sameTarget(x.target, res, fleet)
  )
  if (!d) return null
  const statusAt = parsed.statusAt.get(d.line)
  return statusAt === undefined ? null : markDelivered(text, d.line, statusAt, at)
}
