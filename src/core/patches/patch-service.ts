/**
 * The patch service: the one way handlers and CLI commands reach patches. It reads hubs through
 * the hub service (local and remote alike), verifies in the core, chooses the project, checks the
 * preconditions, runs applies (one at a time per patch, never twice), reverts, submits, and
 * records every decision in the audit.
 */
import { isAbsolute } from 'node:path'
import { commitPatch } from './commit'
import { ApiError } from '../../shared/api-error'
import { ACK_OF, EventType, Status } from '../../shared/contract/hub-vocabulary'
import type { ApplyRun, AuditEntry, HubEvent, PatchSummary, Preflight, PushedEvent, Verification } from '../../shared/api'
import type { ProjectRegistry } from '../fleet'
import type { HubSelection, HubService } from '../hub'
import type { Db } from '../sqlite'
import { executeRun, initialRun, newRunId, type ApplyJob } from './apply'
import { countStates, listPatches, stateInputs, summarize } from './patch-inbox'
import { PatchStore, type ProjectPatchSettings } from './patch-store'
import { checkPreconditions, defaultProject, defaultProjectOf, rankProjects } from './preflight'
import { RunControl } from './run-control'
import { projectDiff, submitPatch, type SubmitInput, type WorktreeDiff } from './submit'
import { verifyPatch, type VerifiedPatch } from './verify'
import { processAlive } from '../process-alive'

/** What the service needs from its surroundings. */
export interface PatchServiceOptions {
  hubs: HubService
  db: Db
  projects: ProjectRegistry
  /** The operator's agent id now (acks and the audit are made as the operator). */
  operator(): string
  /** Receives `patch.run` / `patch.output` pushes (the UI's live view). */
  emit?: (event: PushedEvent) => void
}

/** Options of an apply. */
export interface ApplyOptions {
  id: string
  project: string
  /**
   * A test command for this run (core callers and tests only: the API never passes one, so an
   * apply started over the API runs the project's stored command). Undefined = the project's.
   */
  test_command?: string | null
  test_timeout_ms?: number
  three_way?: boolean
  allow_dirty?: boolean
  /** Who acks (default: the operator). */
  actor?: string
}

type Ref = { hub: string; palace: string }

/** A patch loaded from its hub: the event, its artifacts, and where it came from. */
interface Loaded {
  ref: Ref
  event: HubEvent
  verified: VerifiedPatch
  project: { name: string; path: string } | null
}

/** The patch service of one Muster process. */
export class PatchService {
  readonly store: PatchStore
  private readonly control: RunControl
  /** Runs this process claimed and has not started yet (their preconditions are being checked). */
  private readonly claiming = new Set<string>()

  constructor(private readonly opts: PatchServiceOptions) {
    this.store = new PatchStore(opts.db)
    this.control = new RunControl(this.store, opts.emit)
  }

  private me(actor?: string): string {
    return actor ?? this.opts.operator()
  }

  /** Loads and verifies one patch, in `project`'s repository when given (else the default project's). */
  private async load(sel: HubSelection, id: string, project?: string | null): Promise<Loaded> {
    const h = this.opts.hubs.chooseToRead(sel)
    const event = await h.hub.get(id)
    if (!event) throw new ApiError(`event '${id}' not found`, 'not_found')
    const artifacts = await Promise.all(event.artifact_ids.map((a) => h.hub.getArtifact(a)))
    let chosen: { name: string; path: string } | null = null
    if (project) chosen = this.opts.projects.get(project)
    else if (project === undefined) {
      const d = await defaultProjectOf(this.opts.projects.list(), event)
      chosen = d.project ? this.opts.projects.get(d.project) : null
    }
    const verified = await verifyPatch({ event, artifacts, repo: chosen ? { project: chosen.name, path: chosen.path } : null })
    return { ref: { hub: h.name, palace: h.location }, event, verified, project: chosen }
  }

  /** Records a verification when its verdict or its reasons changed since the last record. */
  private recordVerify(l: Loaded, actor: string, always = false): void {
    const v = l.verified.verification
    const summary =
      v.verdict === 'refused'
        ? `refused: ${v.refused.join('; ')}`
        : `${v.verdict}: sha256 ${v.sha256.computed?.slice(0, 16)}… matches the stored sha and ${v.quoted.length} quoted; ${v.warnings.length + v.findings.filter((f) => f.level === 'warning').length} warning(s)`
    if (!always && this.store.lastAudit(l.ref.palace, l.event.id, 'verify')?.summary === summary) return
    this.store.audit({
      hub: l.ref.palace,
      event_id: l.event.id,
      correlation_id: l.event.correlation_id,
      action: 'verify',
      outcome: v.verdict,
      actor,
      project: v.checked_in,
      summary,
      apply_id: null,
      detail: { sha256: v.sha256, size: v.size, quoted: v.quoted, findings: v.findings }
    })
  }

  /** The inbox: newest patches of a hub with state and verdict. */
  async list(
    sel: HubSelection,
    limit = 200
  ): Promise<Ref & { patches: PatchSummary[]; counts: ReturnType<typeof countStates>; truncated: boolean }> {
    const h = this.opts.hubs.chooseToRead(sel)
    const { patches, truncated } = await listPatches(h.hub, this.opts.projects.list(), limit)
    return { hub: h.name, palace: h.location, patches, counts: countStates(patches), truncated }
  }

  /** One patch in full: summary, verification (recorded), content, audit, runs. */
  async get(sel: HubSelection, id: string, project?: string) {
    const l = await this.load(sel, id, project)
    this.recordVerify(l, this.me())
    const h = this.opts.hubs.chooseToRead(sel)
    const around = await stateInputs(h.hub, [l.event])
    return {
      ...l.ref,
      summary: summarize(l.event, l.verified, around, this.opts.projects.list()),
      verification: l.verified.verification,
      content: l.verified.artifact?.content ?? null,
      audit: this.store.auditOf(l.ref.palace, { event_id: l.event.id }),
      runs: this.store.runsOf(l.ref.palace, l.event.id).map((r) => this.control.current(r.run))
    }
  }

  /** Verifies a patch again (always recorded). */
  async verify(sel: HubSelection, id: string, project?: string, actor?: string): Promise<Ref & { verification: Verification }> {
    const l = await this.load(sel, id, project)
    this.recordVerify(l, this.me(actor), true)
    return { ...l.ref, verification: l.verified.verification }
  }

  /** Why a patch counts as applied already, or null. */
  private async appliedBy(sel: HubSelection, l: Loaded): Promise<string | null> {
    const h = this.opts.hubs.chooseToRead(sel)
    const acks = await h.hub.list({
      type: EventType.ack,
      correlation_id: l.event.correlation_id ?? l.event.id,
      status: Status.applied,
      limit: 500
    })
    const ack = acks.events.find((a) => a.metadata[ACK_OF] === l.event.id)
    if (ack) return `acked applied by ${ack.from_agent} at ${ack.created_at} (${ack.id})`
    const run = this.store.runsOf(l.ref.palace, l.event.id).find((r) => r.run.outcome === 'applied')
    return run ? `applied by Muster run ${run.run.id} at ${run.run.finished_at ?? run.run.started_at}` : null
  }

  private async preflightOf(sel: HubSelection, l: Loaded, allowDirty: boolean, testCommand?: string | null): Promise<Ref & Preflight> {
    const ranked = await rankProjects(this.opts.projects.list(), l.event)
    const d = defaultProject(ranked)
    const project = l.project?.name ?? null
    const settings = project ? this.store.settings(project) : null
    const command = testCommand === undefined ? (settings?.test_command ?? null) : testCommand
    const base = {
      ...l.ref,
      event_id: l.event.id,
      project,
      candidates: ranked,
      project_reason: project === null ? d.reason : project === d.project ? d.reason : 'chosen by the operator',
      test_command: command,
      test_timeout_ms: settings?.test_timeout_ms ?? this.store.settings('').test_timeout_ms
    }
    if (!l.project)
      return {
        ...base,
        repo: null,
        head: null,
        can_apply: false,
        preconditions: [{ id: 'repository', level: 'fail', label: 'No project', detail: d.reason }]
      }
    const pre = await checkPreconditions({
      repo: l.project.path,
      event: l.event,
      verification: l.verified.verification,
      allowDirty,
      appliedBy: await this.appliedBy(sel, l),
      testCommand: command
    })
    return { ...base, repo: pre.root, head: pre.head, preconditions: pre.list, can_apply: !pre.list.some((p) => p.level === 'fail') }
  }

  /** The project an apply would use and its preconditions, checked now. */
  async preflight(sel: HubSelection, id: string, project?: string, allowDirty = false): Promise<Ref & Preflight> {
    const l = await this.load(sel, id, project)
    this.recordVerify(l, this.me())
    return this.preflightOf(sel, l, allowDirty)
  }

  /**
   * Claims the patch, then checks everything and starts the run; `run.done` resolves when it ends.
   * The claim comes first, before anything looks at or touches the worktree: a second apply of the
   * same patch (this process or another) is refused as still running (or already applied), never
   * for the changes the first one is making. A refused apply gives its claim back.
   */
  async start(sel: HubSelection, o: ApplyOptions): Promise<{ run: ApplyRun; done: Promise<ApplyRun> }> {
    const actor = this.me(o.actor)
    const l = await this.load(sel, o.id, o.project)
    this.recordVerify(l, actor)
    const refuse = (summary: string, code: 'conflict' | 'invalid_input', project: string | null): never => {
      this.store.audit({
        hub: l.ref.palace,
        event_id: l.event.id,
        correlation_id: l.event.correlation_id,
        action: 'refuse',
        outcome: 'refused',
        actor,
        project,
        summary,
        apply_id: null
      })
      throw new ApiError(summary, code)
    }
    const claimed = l.project ? this.claim(l, actor) : null
    if (claimed && 'blocking' in claimed)
      refuse(
        claimed.blocking.outcome === 'applied'
          ? `apply refused: already applied by Muster run ${claimed.blocking.id}`
          : `apply refused: run ${claimed.blocking.id} of this patch is still running`,
        'conflict',
        l.project?.name ?? null
      )
    let pre: Ref & Preflight
    try {
      pre = await this.preflightOf(sel, l, !!o.allow_dirty, o.test_command)
      const failed = pre.preconditions.filter((p) => p.level === 'fail')
      if (failed.length) {
        const already = failed.find((p) => p.id === 'not-applied')
        refuse(
          `apply refused: ${failed.map((p) => `${p.label.toLowerCase()} (${p.detail})`).join('; ')}`,
          already ? 'conflict' : 'invalid_input',
          pre.project
        )
      }
    } catch (err) {
      if (claimed && 'run' in claimed) {
        this.claiming.delete(claimed.run.id)
        this.store.release(claimed.run.id)
      }
      throw err
    }
    const job: ApplyJob = {
      hubName: l.ref.hub,
      hubLocation: l.ref.palace,
      event: l.event,
      verified: l.verified,
      project: l.project!.name,
      root: pre.repo!,
      headBefore: pre.head?.commit ?? null,
      testCommand: pre.test_command,
      testTimeoutMs: o.test_timeout_ms ?? pre.test_timeout_ms,
      threeWay: !!o.three_way,
      actor
    }
    const mine = (claimed as { run: ApplyRun }).run // preflight refuses a patch without a project
    const run: ApplyRun = { ...initialRun(mine.id, job), started_at: mine.started_at }
    this.store.saveRun(run, process.pid)
    this.control.started(run)
    this.claiming.delete(run.id)
    const done = executeRun(run, job, {
      store: this.store,
      ack: async (status, body) => (await this.opts.hubs.ack({ ...sel, event_id: l.event.id, from_agent: actor, status, body })).event,
      onRun: (r) => this.control.changed(r),
      onOutput: (text) => this.control.output(run.id, text),
      onTest: (t) => this.control.test(run.id, t)
    }).finally(() => this.control.ended(run.id))
    return { run, done }
  }

  /** Stores a run of the loaded patch as running in this process, or names the run that blocks it. */
  private claim(l: Loaded, actor: string): { run: ApplyRun } | { blocking: ApplyRun } {
    const run = initialRun(newRunId(), {
      hubName: l.ref.hub,
      hubLocation: l.ref.palace,
      event: l.event,
      verified: l.verified,
      project: l.project!.name,
      root: l.project!.path,
      headBefore: null,
      testCommand: null,
      testTimeoutMs: 0,
      threeWay: false,
      actor
    })
    const blocking = this.store.claim(run, process.pid, (other, pid) =>
      pid === process.pid ? this.control.has(other.id) || this.claiming.has(other.id) : processAlive(pid)
    )
    if (blocking) return { blocking }
    this.claiming.add(run.id)
    return { run }
  }

  /** An apply run as it stands now. */
  run(id: string): ApplyRun {
    return this.control.get(id)
  }

  /** Cancels a run's test command. */
  cancel(id: string): ApplyRun {
    return this.control.cancel(id)
  }

  /** Puts the worktree back as it was before a failed run's apply. */
  async revert(id: string, actor?: string): Promise<{ run: ApplyRun; restored: string[]; untouched: string[] }> {
    return this.control.revert(id, this.me(actor))
  }

  /**
   * Commits what an applied run changed: the patch's paths only, the sending agent as the author,
   * a message from the patch and its task (or `message`). Refused for a run that did not apply, was
   * reverted, or whose files were committed already.
   */
  async commit(
    id: string,
    message?: string | null,
    actor?: string
  ): Promise<{ run: ApplyRun; commit: string; message: string; author: string }> {
    const run = this.control.get(id)
    if (run.outcome !== 'applied' || !run.applied)
      throw new ApiError(`run ${id} did not apply the patch (${run.outcome ?? run.phase}): there is nothing to commit`, 'conflict')
    if (run.reverted_at) throw new ApiError(`run ${id} was reverted at ${run.reverted_at}: there is nothing to commit`, 'conflict')
    const sel: HubSelection = isAbsolute(run.hub) ? { palace: run.hub } : { hub: run.hub }
    const l = await this.load(sel, run.event_id, run.project)
    const corr = l.event.correlation_id
    const thread = corr ? await this.opts.hubs.thread({ ...sel, correlation_id: corr }).catch(() => null) : null
    const done = await commitPatch({
      repo: run.repo,
      files: l.verified.verification.files,
      event: l.event,
      taskTitle: thread?.request?.title ?? null,
      sha256: l.verified.verification.sha256.computed,
      operator: this.me(actor),
      message
    })
    this.store.audit({
      hub: l.ref.palace,
      event_id: l.event.id,
      correlation_id: corr,
      action: 'commit',
      outcome: 'committed',
      actor: this.me(actor),
      project: run.project,
      summary: `committed run ${id} as ${done.commit.slice(0, 12)} (author ${done.author})`,
      apply_id: id
    })
    return { run, ...done }
  }

  /** A project's working-tree diff against HEAD. */
  worktreeDiff(project: string): Promise<WorktreeDiff> {
    return projectDiff(this.opts.projects.get(project))
  }

  /** Sends a patch to an agent (a file's text, or a project's working-tree diff), recorded in the audit. */
  async submit(sel: HubSelection, input: Omit<SubmitInput, 'from_agent'> & { from_agent?: string }) {
    const from = this.me(input.from_agent)
    const project = input.project ? this.opts.projects.get(input.project) : null
    const done = await submitPatch(this.opts.hubs, sel, project, { ...input, from_agent: from })
    this.store.audit({
      hub: done.palace,
      event_id: done.event.id,
      correlation_id: done.event.correlation_id,
      action: 'submit',
      outcome: 'submitted',
      actor: from,
      project: project?.name ?? null,
      apply_id: null,
      summary: `submitted ${done.artifact.id} (${done.artifact.size_bytes} bytes, sha256 ${done.artifact.sha256.slice(0, 16)}…) to ${input.to_agent}${done.artifact.warnings.length ? ` with ${done.artifact.warnings.length} warning(s)` : ''}`
    })
    return done
  }

  /** Audited decisions of a patch or a thread. */
  audit(sel: HubSelection, q: { event_id?: string; correlation_id?: string }): Ref & { entries: AuditEntry[] } {
    const h = this.opts.hubs.choose(sel)
    if (!q.event_id && !q.correlation_id) throw new ApiError('pass event_id or correlation_id', 'invalid_input')
    return { hub: h.name, palace: h.location, entries: this.store.auditOf(h.location, q) }
  }

  /** A project's test settings. */
  settings(project: string): ProjectPatchSettings {
    return this.store.settings(this.opts.projects.get(project).name)
  }

  /**
   * Sets a project's test command (null = none) and timeout: the only way a command reaches an
   * apply, so each change is audited (who, from what, to what).
   */
  setSettings(project: string, testCommand: string | null, timeoutMs?: number, actor?: string): ProjectPatchSettings {
    const name = this.opts.projects.get(project).name
    const before = this.store.settings(name)
    const after = this.store.setSettings(name, testCommand, timeoutMs)
    if (before.test_command !== after.test_command || before.test_timeout_ms !== after.test_timeout_ms)
      this.store.audit({
        hub: '',
        event_id: '',
        correlation_id: null,
        action: 'settings',
        outcome: 'changed',
        actor: this.me(actor),
        project: name,
        summary: `test command ${JSON.stringify(before.test_command)} -> ${JSON.stringify(after.test_command)}, timeout ${before.test_timeout_ms} -> ${after.test_timeout_ms} ms`,
        apply_id: null
      })
    return after
  }

  /** The audited changes of a project's test settings, oldest first. */
  settingsAudit(project: string): AuditEntry[] {
    return this.store.settingsAudit(this.opts.projects.get(project).name)
  }

  /** Waits for runs of this process to end (tests stop on close). */
  async close(): Promise<void> {
    await this.control.close()
  }
}
