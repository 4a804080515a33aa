/**
 * Invocation chains (`#/chains`): every rule violation and malformed tag in the fleet's role files
 * and hub event bodies, with the chain as the rules saw it and the answer to use, live; and a form
 * that checks one invocation before it is sent.
 */
import { useMemo, useState } from 'react'
import { CircleAlert, ExternalLink, TriangleAlert, Workflow } from 'lucide-react'
import type { ChainFinding } from '../../../../shared/api'
import { useChainFindings, useProjects } from '../../api/queries'
import { Chip } from '../../components/chip'
import { ProjectFilter } from '../../components/filter-select'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState, LoadingState } from '../../components/state-views'
import { plural } from '../../lib/format'
import { roleHref } from '../../lib/muse-route'
import { MuseTabs } from '../directives/muse-tabs'
import { ChainCheckForm } from './chain-check-form'
import { RefreshButton } from '../../components/refresh-button'

/** What each rule means, one line, for the chips' tooltips. */
const RULES: Record<ChainFinding['rule'], string> = {
  self: 'Rule 1: an agent cannot invoke itself',
  depth: 'Rule 2: maximum depth 2 (A → B → C); a third hop is blocked',
  circular: 'Rule 3: no circular calls (a role already in the chain)',
  isolation: 'Board meeting: no invocations in phase 2; the critic may not invoke in phase 3',
  broadcast: 'Only the CEO may BROADCAST',
  'unknown-role': 'Not a role of the protocol (ceo cfo cro cmo cpo cto chro coo ciso, gc cdo caio cco vpe)',
  'sibling-chain': 'Sibling calls written as one chain: each call carries its own chain',
  'no-assumption': 'A BLOCKED answer must state the assumption used instead',
  'response-format': 'RESPONSE blocks: Key finding, 2-3 supporting data, Confidence, closing tag'
}

function where(f: ChainFinding): { label: string; href: string } {
  const s = f.source
  if (s.kind === 'role') return { label: `${s.project}/.muse/${s.file}:${f.line}`, href: roleHref(s.project!, s.role!, f.line) }
  const params = new URLSearchParams({ from_agent: s.from ?? '', text: '[' })
  if (s.hub) params.set('hub', s.hub)
  return { label: `${s.hub} · ${s.eventId} · from ${s.from}`, href: `#/timeline?${params.toString()}` }
}

function Finding({ f }: { f: ChainFinding }) {
  const at = where(f)
  const path = f.target ? [...f.chain, f.target].join(' → ') : f.chain.join(' → ')
  return (
    <li className={`cf-item ${f.level}`} data-testid="chain-finding" data-rule={f.rule}>
      <div className="cf-head">
        {f.level === 'error' ? (
          <CircleAlert size={14} aria-hidden className="text-error" />
        ) : (
          <TriangleAlert size={14} aria-hidden className="nl-warn" />
        )}
        <Chip tone={f.level === 'error' ? 'error' : 'warning'} title={RULES[f.rule]}>
          {f.rule}
        </Chip>
        {path && <span className="mono cf-path">{path}</span>}
        {f.phase && <Chip tone="neutral">phase {f.phase}</Chip>}
        <span className="card-spacer" />
        <a
          className="cf-where mono"
          href={at.href}
          title={f.source.kind === 'role' ? 'Open the role file at this line' : 'Show this agent’s tagged events in the timeline'}
        >
          {at.label} <ExternalLink size={11} aria-hidden />
        </a>
      </div>
      <p className="cf-message">{f.message}</p>
      {f.written && (
        <p className="cf-written muted">
          written: <span className="mono">[CHAIN: {f.written.join(' → ')}]</span>
        </p>
      )}
      {f.blocked && (
        <p className="cf-blocked">
          <span className="muted">answer:</span> <code>{f.blocked}</code>
        </p>
      )}
    </li>
  )
}

/** The screen. */
export function ChainsScreen() {
  const [project, setProject] = useState('')
  const [level, setLevel] = useState<'all' | 'error' | 'warning'>('all')
  const projects = useProjects()
  const q = useChainFindings(project || undefined)
  const names = useMemo(() => (projects.data ?? []).map((p) => p.name), [projects.data])
  const shown = useMemo(() => (q.data?.findings ?? []).filter((f) => level === 'all' || f.level === level), [q.data, level])

  return (
    <section className="screen screen-fill" data-testid="chains-screen" aria-label="Invocation chains">
      <ScreenHeader
        title="Invocation chains"
        description="[INVOKE] / [CHAIN] tags in role files and hub events, checked against the protocol’s four hard rules."
        actions={
          <>
            <MuseTabs current="chains" />
            <RefreshButton query={q} label="Check again" size={15} />
          </>
        }
      />
      <div className="screen-split cf-layout">
        <div className="split-column">
          <div className="split-bar cf-bar">
            <div className="segmented" role="radiogroup" aria-label="Level">
              {(['all', 'error', 'warning'] as const).map((l) => (
                <label key={l} className={`segment${level === l ? ' active' : ''}`}>
                  <input type="radio" name="chain-level" value={l} checked={level === l} onChange={() => setLevel(l)} />
                  {l === 'all' ? 'All' : l === 'error' ? 'Violations' : 'Warnings'}
                  <span className="segment-count">
                    {l === 'all' ? (q.data?.findings.length ?? '') : l === 'error' ? (q.data?.errors ?? '') : (q.data?.warnings ?? '')}
                  </span>
                </label>
              ))}
            </div>
            <ProjectFilter value={project} onChange={setProject} options={names} testId="chains-project" />
            {q.data && (
              <span className="muted cf-scanned">
                {plural(q.data.scanned.roleFiles, 'role file')} and {plural(q.data.scanned.events, 'tagged event')} checked
              </span>
            )}
          </div>
          {q.isError ? (
            <ErrorState title="Could not check the chains" error={q.error} onRetry={() => void q.refetch()} retrying={q.isFetching} />
          ) : !q.data ? (
            <LoadingState label="Checking chains…" />
          ) : shown.length === 0 ? (
            <EmptyState
              icon={<Workflow size={18} />}
              title={q.data.findings.length ? 'Nothing at this level' : 'Every invocation follows the rules'}
            >
              No self-invocation, no chain deeper than two hops, no circular call, nothing invoked during a board meeting’s phase 2 or by
              its critic.
            </EmptyState>
          ) : (
            <ul className="split-list rows-divided" data-testid="chain-findings">
              {shown.map((f, i) => (
                <Finding key={`${f.source.kind}-${f.source.project ?? f.source.eventId}-${f.source.file}-${f.line}-${f.rule}-${i}`} f={f} />
              ))}
            </ul>
          )}
        </div>
        <aside className="cf-side">
          <ChainCheckForm />
          <div className="panel cf-rules">
            <h2 className="cc-title">The four hard rules</h2>
            <ol>
              <li>No self-invocation.</li>
              <li>Maximum depth 2: A → B → C; the third hop is blocked.</li>
              <li>No circular calls: a role already in the chain is not invoked again.</li>
              <li>Isolation: board-meeting phase 2 allows no invocations; in phase 3 the executive mentor references, never invokes.</li>
            </ol>
            <p className="muted">
              Blocked calls are answered with <code>[BLOCKED: cannot invoke &lt;role&gt; — &lt;reason&gt;]</code> and the assumption used
              instead.
            </p>
          </div>
        </aside>
      </div>
    </section>
  )
}
