/**
 * The explicit Apply: the project (the matching one by default), every precondition checked now,
 * the test command, one Apply button (disabled with the reason), then the run as it goes: phase,
 * live test output, Cancel, the result and the ack, and after failing tests the offer to revert.
 */
import { useState } from 'react'
import { CircleAlert, CircleCheck, GitCommitHorizontal, Play, RotateCcw, Square, TriangleAlert } from 'lucide-react'
import type { ApplyRun, Preflight } from '../../../../shared/api'
import {
  useApplyPatch,
  useApplyRun,
  useCancelRun,
  useCommitRun,
  usePatchOutput,
  usePreflight,
  useRevertRun,
  useSetPatchSettings
} from '../../api/patch-queries'
import { ActionButton } from '../../components/action-button'
import { Field, TextField } from '../../components/form-field'
import { InlineError } from '../../components/state-views'

const PHASE_LABEL: Record<ApplyRun['phase'], string> = {
  checking: 'Checking (git apply --check)…',
  applying: 'Applying…',
  testing: 'Running the tests…',
  acking: 'Acking…',
  done: 'Done'
}

function Preconditions({ pre }: { pre: Preflight }) {
  return (
    <ul className="precondition-list" aria-label="Preconditions" data-testid="preconditions">
      {pre.preconditions.map((p) => (
        <li key={p.id} className={p.level}>
          {p.level === 'ok' ? (
            <CircleCheck size={13} aria-hidden />
          ) : p.level === 'warn' ? (
            <TriangleAlert size={13} aria-hidden />
          ) : (
            <CircleAlert size={13} aria-hidden />
          )}
          <span className="precondition-label">{p.label}</span>
          <span className="muted">{p.detail}</span>
        </li>
      ))}
    </ul>
  )
}

/** The run in progress or finished. */
function RunView({ run }: { run: ApplyRun }) {
  const output = usePatchOutput(run)
  const cancel = useCancelRun()
  const revert = useRevertRun()
  const commit = useCommitRun()
  const [left, setLeft] = useState(false)
  const running = run.phase !== 'done'
  const committed = commit.data?.run.id === run.id ? commit.data : null
  return (
    <div className={`apply-run ${run.outcome}`} data-testid="apply-run" aria-busy={running}>
      <div className="apply-run-head" role="status" data-testid="apply-run-status">
        <strong>
          {running
            ? PHASE_LABEL[run.phase]
            : run.outcome === 'applied'
              ? `Applied to ${run.project}${run.test?.status === 'passed' ? ', tests passed' : ''}`
              : run.outcome === 'refused'
                ? 'Refused'
                : 'Failed'}
        </strong>
        {run.reason && <span className="muted">{run.reason}</span>}
        <span className="card-spacer" />
        {running && run.phase === 'testing' && (
          <ActionButton
            icon={Square}
            iconSize={12}
            onClick={() => cancel.mutate({ id: run.id })}
            disabled={cancel.isPending}
            testId="apply-cancel"
          >
            Cancel tests
          </ActionButton>
        )}
      </div>
      {run.check && !run.check.ok && (
        <pre className="apply-output" aria-label="git apply --check output">
          {run.check.output}
        </pre>
      )}
      {run.test && (
        <>
          <div className="muted apply-test-line">
            <span className="mono">{run.test.command}</span> · {run.test.status}
            {run.test.exit_code !== null && `, exit ${run.test.exit_code}`}
            {run.test.duration_ms !== null && ` · ${(run.test.duration_ms / 1000).toFixed(1)} s`}
          </div>
          <pre className="apply-output" aria-label="Test output" aria-live="polite" data-testid="apply-output">
            {output || (running ? 'waiting for output…' : '(no output)')}
          </pre>
        </>
      )}
      {!running && (
        <div className="apply-run-foot" data-testid="apply-ack">
          {run.ack_event_id ? (
            <span>
              Acked <strong>{run.outcome === 'applied' ? 'applied' : 'failed'}</strong> as <span className="mono">{run.ack_event_id}</span>
              {run.head_after && (
                <>
                  {' '}
                  · HEAD <span className="mono">{run.head_after.slice(0, 12)}</span>
                </>
              )}
            </span>
          ) : (
            run.ack_error && <span className="text-error">The ack could not be written: {run.ack_error}</span>
          )}
          {run.revertable && (
            <ActionButton
              icon={RotateCcw}
              iconSize={13}
              onClick={() => revert.mutate({ id: run.id })}
              disabled={revert.isPending}
              testId="apply-revert"
            >
              Revert the worktree
            </ActionButton>
          )}
          {run.reverted_at && <span className="muted">Reverted: the worktree is as it was before the apply.</span>}
        </div>
      )}
      {!running && run.outcome === 'applied' && !run.reverted_at && (
        <div className="apply-commit" data-testid="apply-commit">
          {committed ? (
            <span role="status" data-testid="apply-committed">
              Committed as <span className="mono">{committed.commit.slice(0, 12)}</span> by {committed.author.replace(/ <.*$/, '')}:{' '}
              <span className="mono">{committed.message.split('\n')[0]}</span>
            </span>
          ) : left ? (
            <span className="muted" role="status">
              Left uncommitted: the next patch to this repository needs it committed, or “Allow uncommitted changes”.
            </span>
          ) : (
            <>
              <span>The change is in the worktree, not committed yet.</span>
              <ActionButton
                icon={GitCommitHorizontal}
                iconSize={13}
                className="btn btn-primary"
                onClick={() => commit.mutate({ id: run.id })}
                disabled={commit.isPending}
                testId="apply-commit-button"
              >
                Commit
              </ActionButton>
              <button type="button" className="btn" onClick={() => setLeft(true)} data-testid="apply-leave">
                Leave uncommitted
              </button>
            </>
          )}
        </div>
      )}
      {commit.error && <InlineError error={commit.error} />}
      {revert.error && <InlineError error={revert.error} />}
      {cancel.error && <InlineError error={cancel.error} />}
    </div>
  )
}

/** The panel for one patch. */
export function ApplyPanel({
  hub,
  id,
  refusedReason,
  lastRun
}: {
  hub: string | null
  id: string
  refusedReason: string | null
  lastRun: ApplyRun | null
}) {
  const [project, setProject] = useState('')
  const [allowDirty, setAllowDirty] = useState(false)
  const [threeWay, setThreeWay] = useState(false)
  const [testCommand, setTestCommand] = useState<string | null>(null)
  // the run started here, else the patch's latest run (the pane is remounted per patch)
  const [started, setRunId] = useState<string | null>(null)
  const runId = started ?? lastRun?.id ?? null
  const pre = usePreflight(hub, id, project, allowDirty)
  const run = useApplyRun(runId)
  const apply = useApplyPatch()
  const settings = useSetPatchSettings()
  const p = pre.data
  const command = testCommand ?? p?.test_command ?? ''
  const running = run.data?.phase !== undefined && run.data.phase !== 'done'
  const blocked =
    refusedReason ??
    (p && !p.can_apply
      ? p.preconditions
          .filter((c) => c.level === 'fail')
          .map((c) => `${c.label}: ${c.detail}`)
          .join('; ')
      : null)
  // after this panel's own successful apply, "already applied" is not a problem to show in red
  const appliedHere = run.data?.phase === 'done' && run.data.outcome === 'applied'
  const disabledReason = running || appliedHere ? null : blocked

  const start = async () => {
    if (!p?.project) return
    const wanted = command.trim() ? command.trim() : null
    // the apply runs the project's stored command: a changed one is saved first (an audited call)
    if (wanted !== (p.test_command ?? null)) {
      try {
        await settings.mutateAsync({ project: p.project, test_command: wanted })
      } catch {
        return // shown below
      }
    }
    apply.mutate(
      {
        ...(hub ? { hub } : {}),
        id,
        project: p.project,
        three_way: threeWay,
        allow_dirty: allowDirty
      },
      { onSuccess: (r) => setRunId(r.id) }
    )
  }

  return (
    <section className="apply-panel" aria-label="Apply" data-testid="apply-panel">
      <div className="apply-form">
        <Field label="Project">
          {(fid) => (
            <select
              id={fid}
              className="input select"
              value={project || p?.project || ''}
              onChange={(e) => setProject(e.target.value)}
              data-testid="apply-project"
            >
              {!p?.project && <option value="">No matching project</option>}
              {(p?.candidates ?? []).map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                  {c.matches.length ? ` (${c.matches.join(', ')})` : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          label="Test command"
          fieldClass="field-grow"
          mono
          literal
          value={command}
          onChange={setTestCommand}
          placeholder="none: apply without tests"
          testId="apply-test-command"
        />
      </div>
      {p && !running && <Preconditions pre={p} />}
      {pre.error && <InlineError error={pre.error} />}
      <div className="apply-actions">
        <label className="apply-check">
          <input type="checkbox" checked={allowDirty} onChange={(e) => setAllowDirty(e.target.checked)} /> Allow uncommitted changes
        </label>
        <label className="apply-check">
          <input type="checkbox" checked={threeWay} onChange={(e) => setThreeWay(e.target.checked)} /> Three-way merge
        </label>
        <span className="card-spacer" />
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void start()}
          disabled={running || appliedHere || !!disabledReason || !p?.project || apply.isPending}
          title={running ? 'An apply of this patch is running' : undefined}
          aria-describedby={disabledReason ? 'apply-disabled-reason' : undefined}
          data-testid="apply-button"
        >
          <Play size={13} aria-hidden /> Apply{p?.project ? ` to ${p.project}` : ''}
        </button>
      </div>
      {disabledReason && (
        <p id="apply-disabled-reason" className="apply-disabled-reason" data-testid="apply-disabled-reason">
          Apply is disabled: {disabledReason}
        </p>
      )}
      {settings.error && <InlineError error={settings.error} />}
      {apply.error && <InlineError error={apply.error} />}
      {run.data && <RunView run={run.data} />}
    </section>
  )
}
