/**
 * One patch: who sent it where (project, branch, base commit), its verification, the Apply panel,
 * the patch in the diff view (with its exact bytes in a fold) and the audit of every decision.
 */
import { GitBranch, GitCommitHorizontal } from 'lucide-react'
import { eventLink, threadLink } from '../../../../shared/links'
import { usePatch } from '../../api/patch-queries'
import { Chip } from '../../components/chip'
import { RelativeTime } from '../../components/relative-time'
import { ErrorState, LoadingState } from '../../components/state-views'
import { formatBytes } from '../../lib/format'
import { ApplyPanel } from './apply-panel'
import { PatchStateBadge } from './patch-state-badge'
import { PatchText } from './patch-text'
import { VerificationPanel } from './verification-panel'
import { Visible } from '../../components/visible'

/** The detail pane. */
export function PatchDetail({ hub, id }: { hub: string | null; id: string }) {
  const q = usePatch(hub, id)
  if (q.isError) return <ErrorState title="Could not read this patch" error={q.error} onRetry={() => void q.refetch()} />
  if (!q.data) return <LoadingState label="Verifying…" />
  const { summary: s, verification: v, content, audit, runs } = q.data
  const e = s.event
  const refusedReason = v.verdict === 'refused' ? v.refused.join('; ') || 'verification refused' : null
  return (
    <article className="patch-detail" aria-label={`Patch ${e.id}`} data-testid="patch-detail">
      <header className="patch-detail-head">
        <div className="patch-detail-title">
          <h2>
            <Visible text={e.body.split('\n')[0] || e.id} />
          </h2>
          <PatchStateBadge state={s.state} verdict={s.verdict} byMuster={s.state_by_muster} />
        </div>
        <div className="patch-detail-meta muted">
          <span>
            <strong>
              <Visible text={e.from_agent} />
            </strong>{' '}
            → <Visible text={e.to_agent ?? '*'} />
          </span>
          <span>
            <Visible text={s.project ?? e.stream} />
          </span>
          {e.branch && (
            <Chip tone="mono">
              <GitBranch size={11} aria-hidden /> <Visible text={e.branch} />
            </Chip>
          )}
          {e.base_commit && (
            <Chip tone="mono" title={e.base_commit}>
              <GitCommitHorizontal size={11} aria-hidden /> {e.base_commit.slice(0, 12)}
            </Chip>
          )}
          {s.size_bytes !== null && <span>{formatBytes(s.size_bytes)}</span>}
          <RelativeTime iso={e.created_at} />
          <span className="mono">{e.id}</span>
          <a href={eventLink(hub, e.id)} data-testid="patch-in-timeline">
            In the Timeline
          </a>
          {e.correlation_id && (
            <a href={threadLink(hub, e.correlation_id)} data-testid="patch-thread">
              Thread
            </a>
          )}
        </div>
        {s.state !== 'waiting' && v.verdict !== 'refused' && (
          <p className="patch-state-reason muted">
            <Visible text={s.state_reason} />
          </p>
        )}
      </header>
      <VerificationPanel v={v} />
      <ApplyPanel hub={hub} id={e.id} refusedReason={refusedReason} lastRun={runs.at(-1) ?? null} />
      <PatchText content={content} fileCount={v.files.length} />
      {audit.length > 0 && (
        <section className="patch-audit" aria-label="Audit">
          <h3>Audit</h3>
          <ol data-testid="patch-audit">
            {audit.map((a) => (
              <li key={a.id}>
                <span className="mono">{a.action}</span>{' '}
                <Chip
                  tone={
                    a.outcome === 'ok' || a.outcome === 'applied' || a.outcome === 'passed'
                      ? 'ok'
                      : a.outcome === 'refused' || a.outcome === 'failed'
                        ? 'error'
                        : 'neutral'
                  }
                >
                  {a.outcome}
                </Chip>{' '}
                <span>{a.summary}</span>{' '}
                <span className="muted">
                  · {a.actor} · <RelativeTime iso={a.at} />
                </span>
              </li>
            ))}
          </ol>
        </section>
      )}
    </article>
  )
}
