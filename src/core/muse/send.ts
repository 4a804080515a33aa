/**
 * Send (spec section 4 "Sending"): the sender writes the canonical SPEC form to its OWN role file,
 * inside its outgoing section (a header with 📡 and 指令队列, else `## 📡 战略指令队列` created at
 * the end, before a closing footer). The id is the next free number over the project and the hub
 * project; the target must resolve; INVOKE/CHAIN tags in the body must obey the invocation rules.
 */
import { ApiError } from '../../shared/api-error'
import type { DirectiveOccurrence, Project } from '../../shared/api'
import { checkText } from '../invoke'
import type { FleetView } from './fleet-scan'
import { canonicalTarget, idNumber, normaliseTarget, resolveOccurrence, resolveTarget } from './directive-index'
import { appendPoint, insertBlockAfter, quote } from './edits'
import { parseRole } from './parse-role'
import { roleFile } from './role-path'
import { safeEdit, type SafeWriteHooks } from './safe-write'
import { MAX_KEY_CHARS, requestDigest, type SendKeys } from './send-keys'
import { normalise, splitLines } from '../text'
import { MAX_DIRECTIVE_NUMBER } from '../../shared/directive-id'
import { directiveIdOf, nextDirectiveNumber } from './directive-numbering'

/** The outgoing-queue header Muster creates when the sender's file has none. */
export const OUTGOING_HEADER = '## 📡 战略指令队列'

/** Input of a send. */
export interface SendRequest {
  project: Project
  from: string
  to: string
  title: string
  body: string
  id?: string
  /** Idempotency key: a retry with the same key writes nothing new (see `send-keys.ts`). */
  key?: string
  /** Where keys are recorded (required with `key`). */
  keys?: SendKeys
  hooks?: SafeWriteHooks
}

/** What a send wrote. */
export interface SendOutcome {
  id: string
  target: string
  file: string
  line: number
  warnings: string[]
}

/** The numbers of the S-ids in the project's and the hub project's role files. */
function usedNumbers(fleet: FleetView, project: string): number[] {
  const used: number[] = []
  for (const sp of fleet.projects) {
    if (sp.project.name !== project && sp.project.name !== fleet.hub.project) continue
    for (const r of sp.roles) for (const d of r.directives) used.push(idNumber(d.id))
  }
  return used
}

/** The error when no number is left (every one up to S9999 is taken). */
function usedUp(): ApiError {
  return new ApiError(`directive numbers are used up (every number up to S${MAX_DIRECTIVE_NUMBER} is taken): give an id`, 'conflict')
}

/**
 * The next automatic id over the project's and the hub project's role files, as `S` + 3 digits:
 * one more than the top of their numbering, skipping taken numbers and a stray far jump
 * (`directive-numbering.ts`), and any number `skip` refuses.
 */
export function nextId(fleet: FleetView, project: string, skip?: (n: number) => boolean): string {
  const n = nextDirectiveNumber(usedNumbers(fleet, project), 1, skip)
  if (n === null) throw usedUp()
  return directiveIdOf(n)
}

/** Writes a directive into the sender's own file; with a key, at most once per key. */
export async function send(fleet: FleetView, req: SendRequest): Promise<SendOutcome> {
  if (req.key === undefined) return sendOnce(fleet, req, false)
  if (!req.keys) throw new ApiError('an idempotency key needs a key store', 'internal')
  if (req.key.length === 0 || req.key.length > MAX_KEY_CHARS || [...req.key].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f'))
    throw new ApiError(`idempotency key must be 1-${MAX_KEY_CHARS} characters without control characters`, 'invalid_input')
  const digest = requestDigest({ ...req, project: req.project.name })
  const had = await req.keys.claim(req.key, digest)
  // a retry: the directive written before (same id), or one the unfinished first attempt wrote
  const out = had ? await sendOnce(fleet, { ...req, id: had.id ?? req.id }, had.id === null) : await sendOnce(fleet, req, false)
  await req.keys.done(req.key, digest, out.id)
  return out
}

/** One send; `adopt`: a directive with the same target and title already in the file is this send's. */
async function sendOnce(fleet: FleetView, req: SendRequest, adopt: boolean): Promise<SendOutcome> {
  const sender = await roleFile(req.project, req.from)
  const written = normaliseTarget(req.to)
  if (!written) throw new ApiError(`invalid target '${req.to}': use ROLE, PROJECT/ROLE or ALL`, 'invalid_input')
  const res = resolveTarget(written, fleet)
  if (res.kind === 'unresolved') throw new ApiError(`unknown target ${written}: ${res.reason}`, 'not_found')
  const target = canonicalTarget(res, written)
  const title = req.title.trim()
  if (/[\r\n]/.test(title) || title.includes('**'))
    throw new ApiError('title must be one line without ** (it is written in bold)', 'invalid_input')
  const check = checkText(`${title}\n${req.body}`)
  if (check.violations.length) throw new ApiError(`invocation refused: ${check.violations.join('; ')}`, 'forbidden')
  const taken = (id: string) =>
    fleet.projects.some((sp) =>
      sp.roles.some((r) => r.directives.some((d) => d.id === id && canonicalTarget(resolveOccurrence(d, sp, fleet), d.target) === target))
    )
  // an automatic id skips numbers this target already received from elsewhere
  let id = req.id ?? nextId(fleet, req.project.name, (n) => taken(directiveIdOf(n)))
  if (req.id && taken(id) && !req.key) throw new ApiError(`${id}→${target} already exists: pick another id`, 'conflict')

  const first = id
  const result = await safeEdit(
    sender.path,
    (text) => {
      const parsed = parseRole(sender.file, text)
      // the file may hold what the fleet view lacked (an agent's directive, or the content of a
      // file that was read empty): the id is settled against the text being edited, every time
      const same = (d: DirectiveOccurrence) => d.target === target && d.title === title
      if (req.id) {
        const there = parsed.directives.find((d) => d.id === id && d.target === target)
        if (there && !same(there)) throw new ApiError(`${id}→${target} already exists: pick another id`, 'conflict')
        if (there) return null
      } else {
        // ours, from an earlier run of this edit: any id from the first candidate up (any id at all
        // for a keyed retry whose first attempt never finished)
        const ours = parsed.directives.find((d) => same(d) && (adopt || idNumber(d.id) >= idNumber(first)))
        if (ours) {
          id = ours.id
          return null
        }
        // numbers the file holds now (an agent may have taken ours meanwhile), from the first candidate up
        const n = nextDirectiveNumber([idNumber(first) - 1, ...parsed.directives.map((d) => idNumber(d.id))], idNumber(first), (k) =>
          taken(directiveIdOf(k))
        )
        if (n === null) throw usedUp()
        id = directiveIdOf(n)
      }
      const block = [`📡 **${id}→${target}**: 🟡 **${title}**`, ...quote(req.body)]
      const lines = splitLines(text)
      const section = parsed.sections.find(
        (s) => s.kind === 'outgoing' || (normalise(s.title).includes('📡') && s.title.includes('指令队列'))
      )
      const after = appendPoint(parsed, lines, section)
      return insertBlockAfter(text, after, section ? block : [OUTGOING_HEADER, '', ...block])
    },
    { within: req.project.path, hooks: req.hooks, guard: true }
  )
  const line = parseRole(sender.file, result.text).directives.find((d) => d.id === id && d.target === target)?.line ?? 0
  return { id, target, file: `${req.project.name}/.muse/${sender.file}`, line, warnings: check.warnings }
}
