/**
 * The hub part of the Overview, one compact card per hub: agents present with their staleness
 * and three-way state (working / idle / needs-me), task counts, patches and approvals waiting,
 * and the operator's unread inbox. Every number links to the Timeline, filtered to what it counts
 * (approvals: to the Approvals inbox; patches: to the Patches inbox, whose verified count it shows).
 */
import type { ReactNode } from 'react'
import { Activity, CircleAlert, CloudOff, Lock, Server } from 'lucide-react'
import { EventType, Status, type HubInfo, type MethodOutput } from '../../../../shared/api'
import { useHubOverview, useHubs } from '../../api/hub-queries'
import { useNeeds } from '../../api/needs-queries'
import { usePatches } from '../../api/patch-queries'
import { patchesHref } from '../patches/patches-route'
import { useNow } from '../../hooks/use-now'
import { shortAge } from '../../lib/format'
import { timelineHref } from '../../stores/timeline-store'
import type { TimelineFilters } from '../timeline/timeline-query'
import { InboxBell } from './hub-inbox-bell'
import { visibleTitle } from '../../../../shared/visible-text'
import { Visible } from '../../components/visible'

type HubOverview = MethodOutput<'hub.overview'>['hubs'][number]
type Agent = HubOverview['agents'][number]

const STATE_LABELS: Record<Agent['state'], string> = { working: 'working', idle: 'idle', 'needs-me': 'needs me' }

/**
 * One agent: coloured dot, name, state; "needs me" with its oldest waiting item's age (the
 * needs-you queue), and apart from it, labelled as such, how long ago it was last seen.
 */
function AgentPill({ agent, href }: { agent: Agent; href: string }) {
  const now = useNow()
  const seen = agent.presence ? shortAge(agent.presence.at, now) : null
  const stale = !agent.presence || agent.presence.stale
  const waiting = agent.state === 'needs-me' && agent.needs ? shortAge(agent.needs.since, now) : null
  return (
    <a
      href={href}
      className={`hub-agent hub-agent-${agent.state}${stale ? ' stale' : ''}`}
      data-testid={`hub-agent-${agent.agent}`}
      data-state={agent.state}
      title={`${visibleTitle(agent.agent)}: ${STATE_LABELS[agent.state]} (${visibleTitle(agent.reason)})${agent.presence ? `\nlast seen ${agent.presence.at}${agent.presence.stale ? ' (stale)' : ''}` : '\nnever announced presence'}`}
    >
      <span className="hub-dot" aria-hidden />
      <span className="hub-agent-name">
        <Visible text={agent.agent} />
      </span>
      <span className="hub-agent-state">
        {STATE_LABELS[agent.state]}
        {waiting && (
          <span className="hub-agent-wait" data-testid="hub-agent-wait">
            {' '}
            {waiting}
          </span>
        )}
      </span>
      <span className="hub-agent-age" data-testid="hub-agent-seen">
        {seen ? `${agent.presence?.stale ? 'stale, ' : ''}last seen ${seen}` : 'no presence'}
      </span>
    </a>
  )
}

/** When the oldest pending approval of a hub (by location) started waiting, from the needs-you queue. */
function useOldestApproval(palace: string): string | null {
  const needs = useNeeds().data
  return needs?.items.find((i) => i.kind === 'approval' && i.palace === palace)?.since ?? null
}

/** A count that links to the Timeline. */
function Count({
  label,
  value,
  href,
  tone,
  testId
}: {
  label: string
  value: ReactNode
  href: string
  tone?: 'warning' | 'error' | 'accent'
  testId: string
}) {
  return (
    <a href={href} className={`hub-count${tone ? ` hub-count-${tone}` : ''}`} data-testid={testId}>
      <span className="hub-count-value">{value}</span>
      <span className="hub-count-label">{label}</span>
    </a>
  )
}

/** One hub's card; `info` (from the hub list) says whether it is a server, offline or read-only. */
function HubCard({
  hub,
  registered,
  operator,
  info
}: {
  hub: HubOverview
  registered: boolean
  operator: string
  info: HubInfo | undefined
}) {
  const name = registered ? hub.hub : null
  const link = (filters: TimelineFilters): string => timelineHref({ hub: name, filters })
  const ids = (list: readonly { correlation_id?: string | null }[]): string =>
    [...new Set(list.map((t) => t.correlation_id).filter(Boolean))].join(', ')
  const t = hub.tasks
  const needsMe = hub.agents.filter((a) => a.state === 'needs-me').length
  const now = useNow()
  const oldestApproval = useOldestApproval(hub.palace)
  // the Patches inbox's own count: verified and folded there (a refused or superseded patch is not waiting)
  const patches = usePatches(name)
  const waiting = patches.data?.counts.waiting
  return (
    <article className={`hub-card${hub.ok ? '' : ' hub-card-error'}`} data-testid={`hub-card-${hub.hub}`} aria-label={`Hub ${hub.hub}`}>
      <header className="hub-card-head">
        {info?.kind === 'remote' ? (
          <Server size={15} aria-label="hub server" className="hub-card-icon" />
        ) : (
          <Activity size={15} aria-hidden className="hub-card-icon" />
        )}
        <a href={link({})} className="hub-card-title">
          {hub.hub}
        </a>
        <span className="hub-card-path mono ellipsis" title={hub.palace}>
          {hub.palace}
        </span>
        <span className="card-spacer" />
        {info && !info.online && (
          <span className="hub-offline" title={info.offline_reason ?? undefined} data-testid="hub-card-offline">
            <CloudOff size={13} aria-hidden /> offline
          </span>
        )}
        {info?.read_only && (
          <span className="hub-read-only" title={info.read_only_reason ?? undefined} data-testid="hub-card-read-only">
            <Lock size={13} aria-hidden /> read-only
          </span>
        )}
        {needsMe > 0 && (
          <span className="hub-needs">
            {needsMe} agent{needsMe === 1 ? '' : 's'} need{needsMe === 1 ? 's' : ''} you
          </span>
        )}
      </header>
      {hub.ok && info && !info.online && (
        <p className="hub-card-problem" data-testid="hub-card-offline-reason">
          <CloudOff size={14} aria-hidden /> {info.offline_reason ?? 'offline'}. Showing what Muster last saw; it reconnects by itself.
        </p>
      )}
      {!hub.ok ? (
        <p className="hub-card-problem">
          <CircleAlert size={14} aria-hidden /> {hub.error ?? 'This hub cannot be read.'}
        </p>
      ) : (
        <div className="hub-card-body">
          <div className="hub-agents" aria-label="Agents">
            {hub.agents.length === 0 ? (
              <span className="muted">No agent has written to this hub yet.</span>
            ) : (
              hub.agents.map((a) => <AgentPill key={a.agent} agent={a} href={link({ from_agent: a.agent })} />)
            )}
          </div>
          <div className="hub-counts" data-testid="hub-counts">
            <Count
              testId="hub-count-open"
              label="open"
              value={t?.open ?? 0}
              href={link({ type: EventType.taskRequest })}
              tone={t?.open ? 'accent' : undefined}
            />
            <Count
              testId="hub-count-claimed"
              label="claimed"
              value={t?.claimed ?? 0}
              href={link({ type: EventType.ack, status: Status.claimed })}
            />
            <Count
              testId="hub-count-stuck"
              label="stuck"
              value={t?.stuck ?? 0}
              href={hub.stuck.length ? link({ correlation_id: ids(hub.stuck) }) : link({ type: EventType.ack, status: Status.claimed })}
              tone={t?.stuck ? 'error' : undefined}
            />
            <Count
              testId="hub-count-patches"
              label="patches waiting"
              value={waiting ?? '…'}
              href={patchesHref({ hub: name, state: 'waiting' })}
              tone={waiting ? 'warning' : undefined}
            />
            <Count
              testId="hub-count-approvals"
              label={oldestApproval ? `approvals, oldest ${shortAge(oldestApproval, now)}` : 'approvals'}
              value={hub.approvals_waiting}
              href="#/approvals"
              tone={hub.approvals_waiting ? 'warning' : undefined}
            />
            <Count
              testId="hub-count-inbox"
              label={hub.needs ? `unread to you · ${hub.needs.unread_broadcast} broadcast` : 'inbox'}
              value={hub.needs ? hub.needs.unread_direct : hub.inbox_unread}
              href={link(operator ? { to_agent: operator } : {})}
              tone={(hub.needs ? hub.needs.unread_direct : hub.inbox_unread) ? 'accent' : undefined}
            />
          </div>
        </div>
      )}
    </article>
  )
}

/** Every hub's card; nothing at all while no hub exists (the fleet is the Overview's subject). */
export function HubSection() {
  const overview = useHubOverview()
  const hubs = useHubs()
  const data = overview.data
  if (!data || data.hubs.length === 0) return null
  const registered = new Set((hubs.data?.hubs ?? []).map((h) => h.name))
  const infoAt = new Map([...(hubs.data?.hubs ?? []), ...(hubs.data ? [hubs.data.default] : [])].map((h) => [h.palace, h]))
  return (
    <section className="hub-section" data-testid="hub-overview" aria-label="Hubs">
      <div className="hub-section-head">
        <h2>{data.hubs.length === 1 ? 'Hub' : 'Hubs'}</h2>
        <span className="muted">
          as <code>{data.operator}</code>
        </span>
        <span className="card-spacer" />
        <InboxBell />
      </div>
      {data.hubs.map((h) => (
        <HubCard key={h.palace} hub={h} registered={registered.has(h.hub)} operator={data.operator} info={infoAt.get(h.palace)} />
      ))}
    </section>
  )
}
