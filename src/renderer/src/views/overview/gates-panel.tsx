/**
 * The Overview's "Agent gates": every approvals gate installed from this home (harness, settings
 * file, hook event), whether it would really stop an agent's call for the operator, and the fix
 * when it would not (`muster gates` prints the same). Broken gates first, each with its failing
 * check and fix; a healthy one says when its last request came through. Checked by the server off
 * its main thread (at start, after installs, periodically); "Check now" asks again. The needs-you
 * item of a broken gate links here (`#/overview?panel=gates`). Hidden while no gate is installed.
 */
import { CircleAlert, CircleCheck, CircleHelp, RefreshCw } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { GATE_CHECKS, type GateCheckName, type GateHealth } from '../../../../shared/contract/gates-types'
import { useCheckGates, useGates } from '../../api/gate-queries'
import { useNow } from '../../hooks/use-now'
import { shortAge } from '../../lib/format'
import { Visible } from '../../components/visible'

/** How each check is named in a gate's detail. */
const CHECK_LABEL: Record<GateCheckName, string> = {
  installed: 'installed',
  starts: 'command starts',
  fails_closed: 'fails closed',
  trust: 'trusted by the harness',
  hub: 'hub reachable'
}

/** True when the location hash asks for this panel (`#/overview?panel=gates`). */
function linkedHere(): boolean {
  return new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('panel') === 'gates'
}

/** Broken gates first, then by harness and file. */
export function orderGates(gates: readonly GateHealth[]): GateHealth[] {
  return [...gates].sort((a, b) => Number(a.ok) - Number(b.ok) || a.label.localeCompare(b.label) || a.file.localeCompare(b.file))
}

function CheckIcon({ ok }: { ok: boolean | null }) {
  if (ok === true) return <CircleCheck size={13} aria-label="ok" />
  if (ok === false) return <CircleAlert size={13} aria-label="failing" />
  return <CircleHelp size={13} aria-label="not known" />
}

function GateRow({ g, now }: { g: GateHealth; now: number }) {
  const where = [g.agent ? `as ${g.agent}` : null, g.mode ? `${g.mode} mode` : null, g.hub ? `hub ${g.hub}` : null]
    .filter(Boolean)
    .join(' · ')
  return (
    <li className={`gate-row ${g.ok ? 'gate-ok' : 'gate-broken'}`} data-testid="gate-row" data-gate={g.key} data-ok={String(g.ok)}>
      <div className="row-list-item">
        <span className="row-list-label gate-state">
          {g.ok ? <CircleCheck size={14} aria-hidden /> : <CircleAlert size={14} aria-hidden />}
          {g.ok ? 'stops calls' : 'would not stop calls'}
        </span>
        <span className="row-list-text">
          <span className="row-list-clip">
            <Visible text={g.label} /> <span className="muted">· {g.event}</span>
          </span>
          <span className="row-list-clip gate-where muted" title={g.file}>
            <Visible text={[g.file, where].filter(Boolean).join(' · ')} />
          </span>
        </span>
        <span className="row-list-time muted" title={g.last_request ? new Date(g.last_request).toLocaleString() : undefined}>
          {g.last_request ? `last request ${shortAge(g.last_request, now)}` : 'no request yet'}
        </span>
      </div>
      {!g.ok && (
        <div className="gate-problem" data-testid="gate-problem">
          <p>
            <Visible text={g.problem ?? 'broken'} />
          </p>
          {g.fix && (
            <p className="gate-fix">
              Fix: <Visible text={g.fix} />
            </p>
          )}
          <ul className="gate-checks" aria-label={`Checks of the ${g.label} gate`}>
            {GATE_CHECKS.map((c) => (
              <li key={c} className={`gate-check gate-check-${String(g.checks[c].ok)}`} title={g.checks[c].text}>
                <CheckIcon ok={g.checks[c].ok} /> {CHECK_LABEL[c]}
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  )
}

/** The panel; nothing while no gate is installed. */
export function GatesPanel() {
  const gates = useGates()
  const check = useCheckGates()
  const now = useNow()
  const ref = useRef<HTMLElement>(null)
  const report = gates.data
  const shown = report && report.gates.length > 0
  useEffect(() => {
    if (!shown) return
    // opened by a link (a broken gate's needs-you item), now or while the Overview is shown
    const follow = (): void => {
      if (linkedHere()) ref.current?.scrollIntoView({ block: 'start' })
    }
    follow()
    window.addEventListener('hashchange', follow)
    return () => window.removeEventListener('hashchange', follow)
  }, [shown])
  if (!report || !shown) return null
  const rows = orderGates(report.gates)
  const broken = rows.filter((g) => !g.ok).length
  const checking = report.checking || check.isPending
  return (
    <section ref={ref} id="gates" className="row-panel gates-panel" data-testid="gates-panel" aria-label="Agent gates">
      <div className="needs-head">
        <h2>Agent gates</h2>
        <span className="needs-summary muted" data-testid="gates-summary">
          {[
            broken > 0 ? `${broken} would not stop calls` : null,
            rows.length > broken ? `${rows.length - broken} stop calls` : null,
            report.at ? `checked ${shortAge(report.at, now)}` : null
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
        <button
          type="button"
          className="btn-icon"
          onClick={() => check.mutate()}
          disabled={checking}
          aria-label="Check the gates now"
          title="Check every gate now (they are also checked at start and periodically)"
          data-testid="gates-check"
        >
          <RefreshCw size={14} className={checking ? 'spin' : undefined} />
        </button>
      </div>
      {check.error && <p className="needs-problem">Checking failed: {check.error.message}</p>}
      <ul className="row-list gates-list">
        {rows.map((g) => (
          <GateRow key={g.key} g={g} now={now} />
        ))}
      </ul>
    </section>
  )
}
