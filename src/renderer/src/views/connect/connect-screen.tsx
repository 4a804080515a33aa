/**
 * Connect agents (`#/connect`): every harness Muster knows, found on this machine or not, with its
 * version; one click installs or removes its approvals gate and session hooks (the same edits as
 * `muster connect NAME`); each gate's health with its fix; and a test request that lands in the
 * Approvals inbox, marked as a test, for the operator to approve there (nothing runs either way).
 */
import { CircleAlert, CircleCheck, FlaskConical, Inbox, LoaderCircle, Plug, RefreshCw, Unplug } from 'lucide-react'
import { useState } from 'react'
import type { ConnectHub, HarnessConnection } from '../../../../shared/contract/connect-types'
import { useConnectCheck, useConnectEdit, useConnections, useConnectTest } from '../../api/connect-queries'
import { Chip } from '../../components/chip'
import { TextField } from '../../components/form-field'
import { ScreenHeader } from '../../components/screen-header'
import { ErrorState, InlineError, LoadingState } from '../../components/state-views'
import { Visible } from '../../components/visible'
import { goTo } from '../../lib/muse-route'

/** The hub the gates ask through: named when it exists, else what to do first. */
function HubNote({ hub }: { hub: ConnectHub }) {
  if (hub.exists)
    return (
      <p className="connect-hub muted" data-testid="connect-hub">
        Gates ask you through the hub <strong>{hub.name}</strong> ({hub.why}).
      </p>
    )
  return (
    <div className="connect-hub connect-hub-missing" role="note" data-testid="connect-hub">
      <CircleAlert size={16} aria-hidden />
      <div>
        <p>
          <strong>No hub yet.</strong> A gate asks you through a hub; with none, nobody could answer its agent. Create the demo fleet on the
          Overview, add a hub in Settings, or run <code>muster hubs add --create DIR</code>.
        </p>
        <p className="muted">
          Expected at <span className="mono">{hub.location}</span> ({hub.why}).
        </p>
      </div>
    </div>
  )
}

/** Said when no harness is on PATH: which commands were looked for, and what to do. */
function NoneFound({ harnesses }: { harnesses: readonly HarnessConnection[] }) {
  return (
    <div className="connect-hub connect-hub-missing" role="note" data-testid="connect-none-found">
      <CircleAlert size={16} aria-hidden />
      <p>
        <strong>No agent harness found on this machine.</strong> None of{' '}
        {harnesses.map((c, i) => (
          <span key={c.name}>
            {i ? ', ' : ''}
            <code>{c.bin}</code>
          </span>
        ))}{' '}
        is on PATH. Install one (Claude Code: <code>npm install -g @anthropic-ai/claude-code</code>; the README’s “Connect your agents”
        lists the others), then “Check again”.
      </p>
    </div>
  )
}

/** The gate's health in one line: stops calls, or the first problem and its fix. */
function GateHealthLine({ c }: { c: HarnessConnection }) {
  if (!c.gate.installed) return null
  if (!c.health.length)
    return (
      <p className="connect-health muted" data-testid="connect-health" data-ok="unknown">
        Not checked yet: “Check again” checks every gate now.
      </p>
    )
  const bad = c.health.find((g) => !g.ok)
  if (!bad)
    return (
      <p className="connect-health connect-ok" data-testid="connect-health" data-ok="true">
        <CircleCheck size={14} aria-hidden /> Stops calls: its command starts, {c.label} runs it, and its hub answers.
      </p>
    )
  return (
    <div className="connect-health connect-bad" data-testid="connect-health" data-ok="false">
      <p>
        <CircleAlert size={14} aria-hidden /> Would not stop calls ({bad.event}): <Visible text={bad.problem ?? 'broken'} />
      </p>
      {bad.fix && (
        <p className="muted">
          Fix: <Visible text={bad.fix} />
        </p>
      )}
    </div>
  )
}

/** One harness: what is found and installed, and its buttons. */
function HarnessCard({ c, defaultAgent, hubExists }: { c: HarnessConnection; defaultAgent: string; hubExists: boolean }) {
  const install = useConnectEdit('connect.install')
  const remove = useConnectEdit('connect.remove')
  const test = useConnectTest()
  const [agent, setAgent] = useState('')
  const busy = install.isPending || remove.isPending
  const found = c.path !== null
  const titleId = `connect-${c.name}-title`
  return (
    <li className={`connect-card${found ? '' : ' connect-absent'}`} data-testid={`connect-${c.name}`} aria-labelledby={titleId}>
      <div className="connect-card-head">
        <h2 id={titleId}>{c.label}</h2>
        {found ? (
          <Chip tone="ok" title={c.path ?? undefined} data-testid="connect-found">
            found{c.version ? ` · ${c.version}` : ''}
          </Chip>
        ) : (
          <Chip tone="neutral" data-testid="connect-found">
            not found
          </Chip>
        )}
        {c.gate.installed ? (
          <Chip tone="accent" data-testid="connect-state">
            connected
          </Chip>
        ) : null}
      </div>
      {!found && !c.gate.installed ? (
        <p className="connect-absent-note muted">
          <span className="mono">{c.bin}</span> is not on PATH. Install {c.label}, then “Check again”.
        </p>
      ) : (
        <dl className="kv connect-facts">
          <dt>Command</dt>
          <dd className="mono">{c.path ?? `${c.bin} is not on PATH`}</dd>
          <dt>Approvals gate</dt>
          <dd data-testid="connect-gate">
            {c.gate.installed ? `installed: ${c.gate.events.join(', ')}${c.gate.agent ? `, as ${c.gate.agent}` : ''}` : 'not installed'}
          </dd>
          <dt>Session hooks</dt>
          <dd data-testid="connect-session">
            {c.session.available ? (c.session.installed ? 'installed' : 'not installed') : `${c.label} has none`}
          </dd>
          <dt>Settings</dt>
          <dd className="mono connect-file" title={c.settings}>
            {c.settings}
          </dd>
        </dl>
      )}
      <GateHealthLine c={c} />
      {!c.gate.installed && found && (
        <div className="connect-install">
          <TextField
            label="Agent id"
            optional
            aside="what its requests say they come from"
            value={agent}
            onChange={setAgent}
            placeholder={defaultAgent}
            testId={`connect-agent-${c.name}`}
            mono
            literal
          />
        </div>
      )}
      <div className="connect-actions">
        {!c.gate.installed ? (
          <button
            type="button"
            className={found ? 'btn btn-primary' : 'link-btn'}
            onClick={() => install.mutate({ harness: c.name, ...(agent.trim() ? { agent: agent.trim() } : {}) })}
            disabled={busy}
            data-testid={`connect-install-${c.name}`}
          >
            {install.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Plug size={14} aria-hidden />}
            {found ? 'Install gate and session hooks' : 'Install anyway'}
          </button>
        ) : (
          <>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => test.mutate({ harness: c.name })}
              disabled={test.isPending || !hubExists}
              title={hubExists ? 'A request marked TEST lands in the Approvals inbox; nothing runs either way' : 'Needs a hub first'}
              data-testid={`connect-test-${c.name}`}
            >
              {test.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <FlaskConical size={14} aria-hidden />}
              Send a test request
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => remove.mutate({ harness: c.name })}
              disabled={busy}
              data-testid={`connect-remove-${c.name}`}
            >
              {remove.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Unplug size={14} aria-hidden />}
              Remove
            </button>
          </>
        )}
      </div>
      {install.data && (
        <div className="connect-done" role="status" data-testid="connect-installed">
          <p>
            Installed in <span className="mono">{install.data.gate.file}</span>
            {install.data.session ? ' with its session hooks' : ''}.{' '}
            {install.data.connection.path ? '' : `Ready for when ${c.label} is installed.`}
          </p>
          {install.data.notes.map((n) => (
            <p key={n} className="muted">
              {n}
            </p>
          ))}
        </div>
      )}
      {test.data && c.gate.installed && (
        <div className="connect-done" role="status" data-testid="connect-test-sent">
          <p>
            Test request sent from <strong>{test.data.agent}</strong>: approve it in the inbox. Nothing runs either way.
          </p>
          <button type="button" className="btn" onClick={() => goTo('#/approvals')} data-testid="connect-open-inbox">
            <Inbox size={14} aria-hidden /> Open the inbox
          </button>
        </div>
      )}
      <InlineError error={install.error ?? remove.error ?? test.error} />
    </li>
  )
}

/** The Connect agents screen. */
export function ConnectScreen() {
  const list = useConnections()
  const check = useConnectCheck()
  const data = list.data
  const checking = check.isPending
  const harnesses = data ? [...data.harnesses].sort((a, b) => Number(b.path !== null) - Number(a.path !== null)) : []
  return (
    <section className="screen connect-screen" data-testid="screen-connect">
      <ScreenHeader
        title="Connect agents"
        description="Send your coding agents’ tool calls to your Approvals inbox: install Muster’s gate into each harness, then send a test request and approve it."
        actions={
          <button
            type="button"
            className="btn"
            onClick={() => check.mutate()}
            disabled={checking}
            title="Look for the harnesses again and check every gate now"
            data-testid="connect-check"
          >
            <RefreshCw size={14} className={checking ? 'spin' : undefined} aria-hidden /> Check again
          </button>
        }
      />
      {list.isPending ? (
        <LoadingState label="Looking for agent harnesses on this machine…" />
      ) : !data ? (
        <ErrorState
          title="Could not look for harnesses"
          error={list.error}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : (
        <>
          <HubNote hub={data.hub} />
          {!data.harnesses.some((c) => c.path !== null) && <NoneFound harnesses={data.harnesses} />}
          <InlineError error={check.error} />
          <ul className="connect-list" aria-label="Agent harnesses">
            {harnesses.map((c) => (
              <HarnessCard key={c.harness} c={c} defaultAgent={data.default_agents[c.name] ?? ''} hubExists={data.hub.exists} />
            ))}
          </ul>
          <p className="muted connect-cli">
            The same from a terminal: <code>muster connect</code>, <code>muster connect NAME</code>, <code>muster connect --test NAME</code>
            .
          </p>
        </>
      )}
    </section>
  )
}
