/** The detail pane of the selected directive: body, source, target, receipt, and the actions. */
import { ArrowRight, CheckCheck, FileText, LoaderCircle, Inbox } from 'lucide-react'
import type { Directive, LocatedOccurrence, MethodOutput } from '../../../../shared/api'
import { usePickup } from '../../api/queries'
import { Chip } from '../../components/chip'
import { CopyButton } from '../../components/copy-button'
import { Keys } from '../../components/kbd'
import { MarkdownView } from '../../components/markdown'
import { InlineError } from '../../components/state-views'
import { Visible } from '../../components/visible'
import { visibleTitle } from '../../../../shared/visible-text'
import { goTo, roleHref } from '../../lib/muse-route'
import { canPickUp, pickupProject, primaryOccurrence, resolutionText } from './directive-model'
import { useDirectivesUi } from './directives-store'
import { DirectiveStateBadge, MarkBadge } from './state-badge'
import { CancelButton } from '../../components/cancel-button'

/** A place in a role file, as a link that opens the role viewer at that line. */
function Place({ o }: { o: LocatedOccurrence }) {
  return (
    <a
      className="place"
      href={roleHref(o.project, o.role, o.line)}
      title={visibleTitle(`Open ${o.project}/.muse/${o.file} at line ${o.line}`)}
    >
      <span className="place-who">
        <Visible text={`${o.project} · ${o.role}`} />
      </span>
      <span className="mono place-file">
        <Visible text={`${o.file}:${o.line}`} />
      </span>
    </a>
  )
}

function PickupResult({ result }: { result: MethodOutput<'muse.pickup'> }) {
  const text =
    result.outcome === 'picked-up'
      ? `Picked up ${result.id}→${result.target}: receipt written to ${result.receiptFile}, ${result.sourceFile} marked ✅.`
      : result.outcome === 'completed'
        ? `Completed a half-finished pickup: the receipt was already in ${result.receiptFile}; ${result.sourceFile} is now marked ✅.`
        : `Already picked up; nothing was written.`
  return (
    <p className="pickup-result" role="status" data-testid="pickup-result" data-outcome={result.outcome}>
      <CheckCheck size={14} aria-hidden />
      <span>
        {text} <span className="muted">{result.at}</span>
      </span>
    </p>
  )
}

/** The pane; mount it with `key={directive.key}` so the pickup result belongs to one directive. */
export function DirectiveDetail({ d }: { d: Directive }) {
  const pickup = usePickup()
  const confirming = useDirectivesUi((s) => s.confirming === d.key)
  const setConfirming = useDirectivesUi((s) => s.setConfirming)
  const src = d.source
  // MUSE's MCP server writes the directive into the TARGET's file: no sender line, no receipt.
  const written = !src && !d.receipt ? primaryOccurrence(d) : null
  const body = (src ?? written ?? d.receipt)?.body ?? ''
  const allowed = canPickUp(d)
  const label = d.state === 'received' && allowed ? 'Complete pickup' : 'Pick up'
  const target = d.resolution.kind === 'role' ? d.resolution : null

  const openRole = (): void => {
    const o = src ?? primaryOccurrence(d)
    if (o) goTo(roleHref(o.project, o.role, o.line))
  }

  const doPickup = (): void => {
    setConfirming(null)
    const project = pickupProject(d)
    if (project) pickup.mutate({ project, id: d.id, target: d.target })
  }

  const why = allowed
    ? null
    : d.resolution.kind === 'all'
      ? 'ALL directives are read by every project; there is no single receipt to write.'
      : d.resolution.kind === 'unresolved'
        ? `The target does not resolve: ${d.resolution.reason}`
        : d.state === 'delivered'
          ? 'Already delivered (✅ at the source).'
          : d.state === 'untracked'
            ? 'No 🟡 or ✅ is written for this directive, so there is nothing to pick up.'
            : d.state === 'received' && !src
              ? 'Received: the target wrote a receipt, and no sender line was found to mark ✅.'
              : d.state === 'received'
                ? 'Received, and the sender’s line is not marked 🟡: nothing left to write.'
                : null

  return (
    <aside className="split-side dir-detail" data-testid="directive-detail" aria-label={visibleTitle(`Directive ${d.id} to ${d.target}`)}>
      <header className="dd-head">
        <div className="dd-id-row">
          <DirectiveStateBadge state={d.state} testId="detail-state" />
          <span className="dd-id mono">{d.id}</span>
          <ArrowRight size={13} aria-hidden className="muted" />
          <span className="dd-target mono">
            <Visible text={d.target} />
          </span>
          <CopyButton text={`${d.id}→${d.target}`} label="Copy id and target" />
        </div>
        <h2 className="dd-title">{d.title ? <Visible text={d.title} /> : <span className="muted">(no title)</span>}</h2>
      </header>

      <dl className="dd-meta">
        <dt>From</dt>
        <dd>
          {src ? (
            <Place o={src} />
          ) : written ? (
            <span className="dd-receipt">
              <Place o={written} />
              <span className="muted">written into the target’s own file (MUSE MCP form); sender unknown</span>
            </span>
          ) : (
            <span className="muted">unknown (only a receipt was found)</span>
          )}
        </dd>
        <dt>To</dt>
        <dd>
          {target ? (
            <a
              className="place"
              href={roleHref(target.project, target.role, d.receipt?.line)}
              title={visibleTitle(`Open ${target.project}/.muse/${target.file}`)}
            >
              <span className="place-who">
                <Visible text={`${target.project} · ${target.role}`} />
              </span>
              <span className="mono place-file">
                <Visible text={target.file} />
              </span>
            </a>
          ) : (
            <span className={d.resolution.kind === 'unresolved' ? 'text-error' : undefined}>
              <Visible text={resolutionText(d)} />
            </span>
          )}
        </dd>
        {(src ?? written)?.date && (
          <>
            <dt>Sent</dt>
            <dd>{(src ?? written)?.date}</dd>
          </>
        )}
        {(src ?? written)?.section && (
          <>
            <dt>Section</dt>
            <dd className="ellipsis" title={visibleTitle((src ?? written)?.section ?? '')}>
              <Visible text={(src ?? written)?.section ?? ''} />
            </dd>
          </>
        )}
        <dt>Receipt</dt>
        <dd>
          {d.receipt ? (
            <span className="dd-receipt">
              <Place o={d.receipt} />
              {d.receipt.statusText && (
                <span className="muted ellipsis">
                  <Visible text={d.receipt.statusText} />
                </span>
              )}
            </span>
          ) : (
            <span className="muted">none yet</span>
          )}
        </dd>
        {src?.statusText && (
          <>
            <dt>Status</dt>
            <dd className="ellipsis" title={visibleTitle(src.statusText)}>
              <Visible text={src.statusText.replace(/^[—–-]\s*/, '')} />
            </dd>
          </>
        )}
      </dl>

      <div className="dd-actions">
        {confirming ? (
          <div className="dd-confirm" role="alertdialog" aria-label="Confirm pickup" data-testid="pickup-confirm-bar">
            <span>
              Write the receipt into{' '}
              <strong>
                <Visible text={target?.file ?? d.target} />
              </strong>{' '}
              and mark the source line ✅?
            </span>
            <button type="button" className="btn btn-primary" onClick={doPickup} data-testid="pickup-confirm" autoFocus>
              {label}
            </button>
            <CancelButton onClick={() => setConfirming(null)} />
          </div>
        ) : (
          <>
            <button
              type="button"
              className="btn btn-primary"
              data-testid="pickup-button"
              disabled={!allowed || pickup.isPending}
              title={why ?? `${label}: receipt in the target’s file, ✅ on the source line (p)`}
              onClick={() => setConfirming(d.key)}
            >
              {pickup.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Inbox size={14} aria-hidden />}
              {label}
              <Keys keys={['p']} />
            </button>
            <button type="button" className="btn" disabled={!primaryOccurrence(d)} onClick={openRole} data-testid="open-role-file">
              <FileText size={14} aria-hidden /> Open role file
              <Keys keys={['↵']} />
            </button>
          </>
        )}
      </div>
      {!allowed && why && !pickup.data && <p className="hint dd-why">{why}</p>}
      {pickup.data && <PickupResult result={pickup.data} />}
      <InlineError error={pickup.error} />

      <section className="dd-body" aria-label="Body">
        {body.trim() ? <MarkdownView text={body} className="md-compact" testId="directive-body" /> : <p className="muted">No body text.</p>}
      </section>

      {d.occurrences.length > 1 && (
        <section className="dd-occ" aria-label="Every place this directive appears">
          <h3>Appears in {d.occurrences.length} places</h3>
          <ul>
            {d.occurrences.map((o) => (
              <li key={`${o.project}/${o.file}:${o.line}`}>
                <MarkBadge mark={o.mark} />
                <Chip tone="mono">{o.form}</Chip>
                <Place o={o} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </aside>
  )
}
