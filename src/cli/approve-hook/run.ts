/**
 * Runs `muster approve-hook` for one tool call: checks the options, reads the hook JSON from
 * stdin, opens the smallest context (state DB for the allowlist, one hub), runs the core hook and
 * prints the harness's answer. Shared by the hook's own entry and commander's action.
 */
import { GATE_PROBE_ANSWER, MAX_HOOK_TIMEOUT_MS, isGateProbe, runApproveHook, MAX_HOOK_INPUT_BYTES } from '../../core/approvals'
import { MUSTER_VERSION } from '../../core/version'
import { openHookEntry } from '../../core/root'
import type { CliIo } from '../output'
import type { HookCliOptions } from '../commands/hook-flags'
import { AGENT_ID_MESSAGE, isAgentId } from '../../shared/agent-id'

/** Reads a stream to the end, refusing more than `max` bytes (stops reading there). */
export async function readAll(stream: NodeJS.ReadableStream, max = MAX_HOOK_INPUT_BYTES): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
    size += b.length
    if (size > max) throw new Error(`hook input on stdin is larger than ${max} bytes`)
    chunks.push(b)
  }
  return Buffer.concat(chunks)
}

/**
 * Runs the hook; returns the exit code (0 whenever the harness got an answer). A hook that cannot
 * run as installed exits 2 with the reason: every harness reads that as "block this call".
 * `harnessGone` looks now whether the harness is gone: an answer printed after it went away is
 * recorded as withdrawn, never as delivered.
 */
export async function runHookCommand(
  io: CliIo,
  o: HookCliOptions,
  signal?: AbortSignal,
  gone?: AbortSignal,
  answered?: AbortSignal,
  harnessGone?: () => boolean
): Promise<number> {
  const fail = (message: string): number => {
    io.stderr(`muster approve-hook: ${message}; the call is blocked and nothing was recorded\n`)
    return 2
  }
  if (!o.agent) return fail('--agent is required (the agent whose tool call this is, e.g. --agent mac-claude)')
  if (!isAgentId(o.agent)) return fail(`${AGENT_ID_MESSAGE}, got '${o.agent}'`)
  if (o.timeoutMs !== undefined && (o.timeoutMs < 1 || o.timeoutMs > MAX_HOOK_TIMEOUT_MS))
    return fail(`--timeout-ms must be between 1 and ${MAX_HOOK_TIMEOUT_MS}`)
  if (o.hub && o.palace) return fail('give --hub or --palace, not both')
  let stdin: string
  try {
    const bytes = await (io.readStdin ?? (() => readAll(process.stdin)))()
    if (bytes.length > MAX_HOOK_INPUT_BYTES) throw new Error(`hook input on stdin is larger than ${MAX_HOOK_INPUT_BYTES} bytes`)
    stdin = Buffer.from(bytes).toString('utf8')
  } catch (err) {
    return fail((err as Error).message)
  }
  // `muster gates` checking that this gate's command starts: answered before anything is opened
  if (isGateProbe(stdin)) {
    io.stderr(`${GATE_PROBE_ANSWER} ${MUSTER_VERSION}; nothing was recorded\n`)
    return 2
  }
  const { home, root, ctx, close } = await openHookEntry(o.home, {
    palace: o.palace,
    hub: o.hub,
    env: io.env,
    cwd: io.cwd,
    lockTimeoutMs: o.lockTimeoutMs,
    operatorKeys: o.operatorKeys
      ?.split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    gate: o.gate,
    warn: (line) => io.stderr(`${line}\n`)
  })
  ctx.receipts = { home, ...(o.hub ? { hub: o.hub } : {}), ...(o.palace ? { palace: o.palace } : {}) }
  try {
    const run = await runApproveHook(
      stdin,
      { agent: o.agent, project: o.project, harness: o.harness, event: o.event, timeoutMs: o.timeoutMs, signal, gone, answered },
      ctx
    )
    io.stdout(run.stdout)
    if (run.stderr) io.stderr(`${run.stderr}\n`)
    // the answer is out: its receipt and the marker a later hook of the session settles
    await run.delivered?.(harnessGone?.() === true)
    return run.exitCode
  } finally {
    await close()
    await root.close()
  }
}
