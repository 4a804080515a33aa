/**
 * What verification found: the stored sha256 recomputed over the exact bytes, the size, every sha
 * the sender quoted, upstream's two warnings word for word, and Muster's findings. A mismatch is
 * shown loudly (it disables Apply).
 */
import { CircleAlert, CircleCheck, ShieldAlert, ShieldCheck, TriangleAlert } from 'lucide-react'
import type { Verification } from '../../../../shared/api'
import { Visible } from '../../components/visible'

function Row({ label, ok, children }: { label: string; ok: boolean; children: React.ReactNode }) {
  return (
    <div className={`verify-row ${ok ? 'ok' : 'bad'}`}>
      <dt>{label}</dt>
      <dd>
        {ok ? <CircleCheck size={13} aria-hidden className="text-ok" /> : <CircleAlert size={13} aria-hidden className="text-error" />}
        <span className="sr-only">{ok ? 'matches' : 'does not match'}</span>
        {children}
      </dd>
    </div>
  )
}

/** The panel. */
export function VerificationPanel({ v }: { v: Verification }) {
  const refused = v.verdict === 'refused'
  return (
    <section className={`verify-panel ${v.verdict}`} aria-label="Verification" data-testid="verification">
      <header className="verify-head">
        {refused ? <ShieldAlert size={16} aria-hidden /> : <ShieldCheck size={16} aria-hidden />}
        <strong data-testid="verification-verdict">
          {refused ? 'Refused: this patch is not what was sent' : v.verdict === 'warnings' ? 'Verified, with warnings' : 'Verified'}
        </strong>
      </header>
      {v.refused.length > 0 && (
        <div role="alert">
          <ul className="verify-refusals" data-testid="verification-refusals">
            {v.refused.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        </div>
      )}
      <dl className="verify-grid">
        <Row label="sha256" ok={v.sha256.ok}>
          <span className="mono verify-sha" title={`stored ${v.sha256.stored ?? '—'}\ncomputed ${v.sha256.computed ?? '—'}`}>
            {v.sha256.computed ?? '—'}
            {!v.sha256.ok && <span className="verify-stored"> (stored {v.sha256.stored ?? 'nothing'})</span>}
          </span>
        </Row>
        <Row label="size" ok={v.size.ok}>
          {v.size.actual ?? '—'} bytes{!v.size.ok && ` (stored ${v.size.stored ?? '—'})`}
        </Row>
        {v.quoted.map((q, i) => (
          <Row key={i} label={`quoted (${q.where} ${q.at})`} ok={q.ok}>
            <span className="mono verify-sha">{q.sha256}</span>
          </Row>
        ))}
      </dl>
      {(v.warnings.length > 0 || v.findings.length > 0) && (
        <ul className="verify-findings" data-testid="verification-findings">
          {v.warnings.map((w, i) => (
            <li key={`w${i}`} className="warning">
              <TriangleAlert size={13} aria-hidden /> <span>{w}</span>
            </li>
          ))}
          {v.findings
            .filter((f) => !v.refused.includes(f.message))
            .map((f, i) => (
              <li key={`f${i}`} className={f.level}>
                {f.level === 'error' ? <CircleAlert size={13} aria-hidden /> : <TriangleAlert size={13} aria-hidden />}{' '}
                <span>
                  <Visible text={f.message} />
                </span>
              </li>
            ))}
        </ul>
      )}
    </section>
  )
}
