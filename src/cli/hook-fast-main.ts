/**
 * The hook's first try (bundled alone, as CommonJS, into `out/cli/approve-fast.cjs`; `bin/muster.cjs`
 * requires it for every hook call): a call that an allowlist rule allows is answered here without
 * SQLite, commander or the hub, from the rules' signed mirror beside the state DB
 * (`core/approvals/allowlist-mirror.ts`). The record of it (the rule's hit, the request and the
 * allowlist decision in the hub) is left in the home's spool (`core/approvals/hook-jobs.ts`),
 * written before the answer and offered to drainers only once the answer is out, so nothing is
 * recorded for an answer that could not be written; this process starts nothing. Anything else
 * (no mirror, a mirror of another DB, no rule allowing the call, bad options or input, a home the
 * job cannot be written to) returns the stdin read so far to the full hook (`approve-hook.cjs`),
 * which decides exactly as before: this path can only ever allow by a rule the operator signed.
 * While any budget is crossed, or when the budgets' gate file beside the state DB is missing,
 * unreadable or another DB's (`core/usage/gate-file.ts`), every call goes to the full hook, which
 * holds the calls of over-budget sessions for the operator, allowlisted or not.
 */
import { readSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import {
  DecisionTrust,
  MAX_HOOK_INPUT_BYTES,
  allowlistedReason,
  firstMirroredMatch,
  palaceEnvOf,
  prepareJob,
  readHookInput,
  readMirrorFile,
  trustedKeyIds,
  type PendingJob
} from '../core/approvals'
import { STATE_DB_FILE, defaultCliHome, resolveHome } from '../core/fleet'
import { loadHookPresence } from '../core/presence'
import { presenceNeeded } from '../shared/approvals/presence'
import { readGate } from '../core/usage'
import { isAgentId } from '../shared/agent-id'
import { parseHookArgv, type HookCliOptions } from './commands/hook-flags'
import { writeDirect } from './direct-write'

/**
 * What the fast path did: answered (with the exit code; everything is written, the process may
 * exit at once), or the stdin bytes read for the full hook.
 */
export type FastAnswer = { answered: true; exitCode: number } | { answered: false; stdin: Buffer | null }

/**
 * Reads fd 0 to its end with blocking reads (a non-blocking pipe is waited on), stopping once past
 * `max` bytes (what was read is returned: the full hook then refuses the input as too large).
 */
function readStdinSync(max: number): Buffer {
  const chunks: Buffer[] = []
  let size = 0
  const buf = Buffer.allocUnsafe(64 * 1024)
  for (;;) {
    let n: number
    try {
      n = readSync(0, buf, 0, buf.length, null)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1)
        continue
      }
      if (code === 'EOF') break
      throw err
    }
    if (n === 0) break
    size += n
    chunks.push(Buffer.from(buf.subarray(0, n)))
    if (size > max) break
  }
  return Buffer.concat(chunks)
}

/** A line on stderr; never throws (the answer is out by then). */
function warn(line: string): void {
  try {
    writeDirect(2, line)
  } catch {
    // stderr closed: nobody to tell
  }
}

/** The options the fast path takes as they are; anything the full hook would refuse goes there. */
function usable(o: HookCliOptions): o is HookCliOptions & { agent: string } {
  if (!o.agent || !isAgentId(o.agent) || (o.hub && o.palace)) return false
  return o.timeoutMs === undefined || (o.timeoutMs >= 1 && o.timeoutMs <= 24 * 3600 * 1000)
}

/** The mirrored rule that allows the call on `stdin`, with the call and its harness's adapter; null for none. */
function allowingRule(o: HookCliOptions & { agent: string }, stdin: Buffer, home: string) {
  // a crossed budget (or a gate file that cannot say) sends every call the long way
  if (readGate(join(home, STATE_DB_FILE))?.length !== 0) return null
  const mirror = readMirrorFile(join(home, STATE_DB_FILE))
  if (!mirror?.rules.length) return null
  const read = readHookInput(stdin.toString('utf8'), { harness: o.harness, event: o.event })
  if (!read.ok) return null
  const { adapter, call } = read
  const toMatch = {
    agent: o.agent,
    tool_name: call.tool_name,
    tool_input: call.tool_input,
    cwd: call.cwd,
    home: homedir(),
    provenance: call.provenance ?? null
  }
  // a call that needs the operator's presence is never answered by a rule: the full hook asks (a gate that cannot be read too)
  const presence = loadHookPresence(home, o.gate, () => {})
  if (presenceNeeded(presence.config.policy, toMatch, presence.config.risky)) return null
  const keys = o.operatorKeys
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean)
  const trust = new DecisionTrust(presence.operatorKeys ?? (keys?.length ? keys : trustedKeyIds(home)))
  const rule = firstMirroredMatch(mirror, toMatch, trust)
  return rule ? { adapter, call, rule } : null
}

/**
 * Answers the hook call in `argv` (the words after `muster`) when an allowlist rule in the mirror
 * allows it; otherwise hands back what it read of stdin.
 */
export function answerAllowlisted(argv: readonly string[]): FastAnswer {
  let o: HookCliOptions
  try {
    o = parseHookArgv(argv)
  } catch {
    return { answered: false, stdin: null }
  }
  if (!usable(o)) return { answered: false, stdin: null }
  let stdin: Buffer
  try {
    stdin = readStdinSync(MAX_HOOK_INPUT_BYTES)
  } catch {
    return { answered: false, stdin: null }
  }
  const miss: FastAnswer = { answered: false, stdin }
  if (stdin.length > MAX_HOOK_INPUT_BYTES) return miss
  const home = resolveHome(o.home, process.env, defaultCliHome())
  let found: ReturnType<typeof allowingRule>
  try {
    found = allowingRule(o, stdin, home)
  } catch {
    found = null
  }
  if (!found) return miss
  const { adapter, call, rule } = found
  // the job first: a home it cannot be written to goes the full way (which records in the hub itself)
  let reply: ReturnType<typeof adapter.answer>
  let job: PendingJob
  try {
    reply = adapter.answer(call, 'allow', allowlistedReason(rule), { always: false })
    const { agent, project, palace, hub, timeoutMs, lockTimeoutMs } = o
    job = prepareJob(home, {
      options: { agent, home, project, palace, hub, timeoutMs, lockTimeoutMs },
      cwd: process.cwd(),
      env: palaceEnvOf(process.env),
      call,
      rule
    })
  } catch {
    return miss
  }
  let received: boolean
  try {
    received = writeDirect(1, reply.stdout)
  } catch {
    received = false
  }
  // an answer nobody received is not recorded: the job goes
  if (!received) job.withdraw()
  else
    try {
      job.offer()
    } catch {
      job.withdraw()
      warn(`muster approve-hook: allowed by allowlist rule #${rule.id}, but not recorded: the spool could not be written\n`)
    }
  if (reply.stderr) warn(`${reply.stderr}\n`)
  return { answered: true, exitCode: received ? reply.exitCode : 2 }
}
