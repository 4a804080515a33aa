/** `muster patch list|verify|apply|revert|submit` at work, through the service. */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Command } from 'commander'
import type { ApplyRun, PushedEvent, Verification } from '../../shared/api'
import { globals, withRoot, withService } from '../context'
import { age, CliError, CliExit, count, printJson, table, truncate, type CliIo } from '../output'
import { cliSelection } from './hub-cli'
import { visible } from '../../shared/visible-text'

/** Reads a file (or stdin for `-`) as text, refusing bytes that are not UTF-8 (they could not be stored exactly). */
function readExact(file: string, cwd: string): string {
  const bytes = readFileSync(file === '-' ? 0 : resolve(cwd, file))
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw new CliError(`${file === '-' ? 'stdin' : file} is not UTF-8 text; artifacts hold text only`)
  }
}

/** `patch list [--limit N]`. */
export async function list(io: CliIo, opts: { limit: number }, cmd: Command): Promise<void> {
  const sel = cliSelection(cmd, io)
  const r = await withService(cmd, io, (s) => s.call('patch.list', { ...sel, limit: opts.limit }))
  if (globals(cmd).json) return printJson(io, r)
  if (!r.patches.length) return io.stdout(`no patches in ${r.hub}\n`)
  const rows = [['ID', 'STATE', 'VERDICT', 'FROM', 'TO', 'PROJECT', 'SIZE', 'AGE']]
  for (const p of r.patches) {
    rows.push([
      p.event.id,
      // a superseded only Muster's rule says (the sender's newer patch) is marked as Muster's view
      p.state_by_muster && p.state === 'superseded' ? 'superseded*' : p.state,
      p.verdict,
      truncate(p.event.from_agent, 16),
      truncate(p.event.to_agent ?? '*', 16),
      p.project ?? '-',
      p.size_bytes === null ? '-' : `${p.size_bytes} B`,
      age(p.event.created_at)
    ])
  }
  io.stdout(table(rows))
  const c = r.counts
  const states = (['waiting', 'applied', 'failed', 'superseded', 'refused'] as const).map((k) => `${c[k]} ${k}`).join(', ')
  io.stdout(`${c.total === 1 ? '1 patch' : `${c.total} patches`}: ${states}${r.truncated ? ' (older ones not shown)' : ''}\n`)
  if (r.patches.some((p) => p.state_by_muster && p.state === 'superseded'))
    io.stdout("* Muster's view: the sender posted a newer patch in the thread; no hub event marks it superseded\n")
}

function printVerification(io: CliIo, v: Verification): void {
  io.stdout(`${v.event_id}: ${v.verdict === 'refused' ? 'REFUSED' : v.verdict === 'warnings' ? 'verified, with warnings' : 'verified'}\n`)
  io.stdout(
    `  sha256  stored ${v.sha256.stored ?? '-'}\n          computed ${v.sha256.computed ?? '-'}  ${v.sha256.ok ? 'match' : 'MISMATCH'}\n`
  )
  io.stdout(`  size    stored ${v.size.stored ?? '-'}, actual ${v.size.actual ?? '-'}  ${v.size.ok ? 'match' : 'MISMATCH'}\n`)
  for (const q of v.quoted) io.stdout(`  quoted  ${q.sha256} (${q.where} ${q.at})  ${q.ok ? 'match' : 'MISMATCH'}\n`)
  // a reason is both a refusal and a finding (or a warning and one): each is printed once
  const said = new Set<string>()
  const say = (mark: string, text: string): void => {
    if (said.has(text)) return
    said.add(text)
    io.stdout(`${mark} ${visible(text)}\n`)
  }
  for (const r of v.refused) say('✗', r)
  for (const w of v.warnings) say('!', w)
  for (const f of v.findings) say(f.level === 'error' ? '✗' : '!', f.message)
  io.stdout(`${count(v.files.length, 'file')}\n`)
}

/** `patch verify ID [--project P]`: exit 1 when Apply would be refused. */
export async function verify(io: CliIo, id: string, opts: { project?: string }, cmd: Command): Promise<void> {
  const sel = cliSelection(cmd, io)
  // the patch service alone (no watchers, no other handlers): hooks and scripts call this often
  const r = await withRoot(cmd, io, async (root) => (await root.get('patches')).verify(sel, id, opts.project))
  if (globals(cmd).json) printJson(io, r)
  else printVerification(io, r.verification)
  if (r.verification.verdict === 'refused') throw new CliExit(1)
}

/** Waits for a run to end, printing its test output live unless `quiet`. */
async function waitForRun(
  s: { call: (m: 'patch.run', i: unknown) => Promise<ApplyRun>; subscribe: (l: (e: PushedEvent) => void) => () => void },
  first: ApplyRun,
  buffered: { id: string; text: string }[],
  print: ((t: string) => void) | null
): Promise<ApplyRun> {
  let resolveDone: (r: ApplyRun) => void = () => undefined
  const finished = new Promise<ApplyRun>((res) => (resolveDone = res))
  for (const o of buffered) if (o.id === first.id) print?.(o.text)
  const off = s.subscribe((e) => {
    if (e.name === 'patch.output' && (e.payload as { id: string }).id === first.id) print?.((e.payload as { text: string }).text)
    if (e.name === 'patch.run' && (e.payload as ApplyRun).id === first.id && (e.payload as ApplyRun).phase === 'done')
      resolveDone(e.payload as ApplyRun)
  })
  // A poll as well: an end pushed before the subscription is still seen (every 250 ms, cheap).
  const poll = setInterval(() => {
    void s.call('patch.run', { id: first.id }).then(
      (r) => r.phase === 'done' && resolveDone(r),
      () => undefined
    )
  }, 250)
  try {
    return first.phase === 'done' ? first : await finished
  } finally {
    off()
    clearInterval(poll)
  }
}

/** `patch apply ID [--project P] [--test CMD] [--timeout S] [--3way] [--allow-dirty]`: exit 0 only when applied. */
export async function apply(
  io: CliIo,
  id: string,
  opts: { project?: string; test?: string; timeout?: number; '3way'?: boolean; allowDirty?: boolean },
  cmd: Command
): Promise<void> {
  const sel = cliSelection(cmd, io)
  const json = globals(cmd).json
  const end = await withService(cmd, io, async (s) => {
    let project = opts.project
    if (!project) {
      const pre = await s.call('patch.preflight', { ...sel, id, allow_dirty: opts.allowDirty })
      if (!pre.project) throw new CliError(`no project to apply ${id} to: ${pre.project_reason}; pass --project`)
      project = pre.project
      if (!json) io.stdout(`project ${project} (${pre.project_reason})\n`)
    }
    const early: { id: string; text: string }[] = []
    const off = s.subscribe((e) => e.name === 'patch.output' && early.push(e.payload as { id: string; text: string }))
    try {
      // the apply runs the project's stored command: --test changes it first (an audited call)
      if (opts.test !== undefined) await s.call('patch.setSettings', { project, test_command: opts.test })
      const run = await s.call('patch.apply', {
        ...sel,
        id,
        project,
        test_timeout_ms: opts.timeout === undefined ? undefined : opts.timeout * 1000,
        three_way: opts['3way'],
        allow_dirty: opts.allowDirty
      })
      return await waitForRun(s, run, early, json ? null : (t) => io.stdout(t))
    } finally {
      off()
    }
  })
  if (json) printJson(io, end)
  else {
    if (end.check && !end.check.ok) io.stdout(`${end.check.command}:\n${end.check.output}`)
    io.stdout(`${end.outcome}${end.reason ? `: ${end.reason}` : ''}\n`)
    if (end.ack_event_id) io.stdout(`acked ${end.outcome === 'applied' ? 'applied' : 'failed'} as ${end.ack_event_id}\n`)
    if (end.ack_error) io.stdout(`! the ack could not be written: ${end.ack_error}\n`)
    if (end.revertable) io.stdout(`the worktree can be put back as it was: muster patch revert ${end.id}\n`)
  }
  if (end.outcome !== 'applied') throw new CliExit(1)
}

/** Flags of `patch submit`. */
interface SubmitFlags {
  toAgent: string
  fromWorktree?: string
  project?: string
  stream?: string
  correlationId?: string
  branch?: string
  baseCommit?: string
  body?: string
}

/** `patch submit FILE|--from-worktree P --to-agent A [--project P | --stream S] [--correlation-id C] [--branch B] [--base-commit C] [--body TEXT]`. */
export async function submit(io: CliIo, file: string | undefined, opts: SubmitFlags, cmd: Command): Promise<void> {
  if (!file === !opts.fromWorktree) throw new CliError('pass a patch file (or -) or --from-worktree PROJECT, not both')
  const content = file ? readExact(file, io.cwd) : undefined
  const sel = cliSelection(cmd, io)
  const project = opts.fromWorktree ?? opts.project
  const r = await withService(cmd, io, (s) =>
    s.call('patch.submit', {
      ...sel,
      to_agent: opts.toAgent,
      correlation_id: opts.correlationId,
      body: opts.body,
      stream: opts.stream,
      branch: opts.branch,
      base_commit: opts.baseCommit,
      ...(project !== undefined ? { project } : {}),
      ...(content !== undefined ? { content } : { from_worktree: true })
    })
  )
  if (globals(cmd).json) return printJson(io, r)
  io.stdout(
    `${r.event.id}  patch.ready to ${opts.toAgent}  ${r.artifact.id}  ${r.artifact.size_bytes} bytes  sha256 ${r.artifact.sha256}\n`
  )
  for (const w of r.artifact.warnings) io.stdout(`! ${w}\n`)
}

/** `patch revert RUN`: puts the worktree back as it was before a run whose tests failed. */
export async function revert(io: CliIo, runId: string, _opts: unknown, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) => s.call('patch.revert', { id: runId }))
  if (globals(cmd).json) return printJson(io, r)
  io.stdout(`reverted ${runId}: ${count(r.restored.length, 'path')} restored${r.restored.length ? ` (${r.restored.join(', ')})` : ''}\n`)
  if (r.untouched.length) io.stdout(`left alone (not the patch's): ${r.untouched.join(', ')}\n`)
}

/** `patch commit RUN [--message M]`: commits an applied run's change as its agent. */
export async function commit(io: CliIo, runId: string, opts: { message?: string }, cmd: Command): Promise<void> {
  const r = await withService(cmd, io, (s) =>
    s.call('patch.commit', { id: runId, ...(opts.message !== undefined ? { message: opts.message } : {}) })
  )
  if (globals(cmd).json) return printJson(io, r)
  io.stdout(`committed ${r.commit.slice(0, 12)} (author ${r.author}): ${r.message.split('\n')[0]}\n`)
}
