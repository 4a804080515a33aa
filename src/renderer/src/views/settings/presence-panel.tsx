/**
 * Settings → Presence: the authenticators that must confirm allows (a passkey on this device or a
 * phone, a security key, Touch ID / Windows Hello), the policy (every allow, or only the calls on
 * the risky list), and the risky list itself, visible and editable. Once one authenticator is
 * enrolled, every change here is confirmed with it. `muster presence …` links here
 * (`#/settings?presence=enrol|policy|remove`), so the change it names is one tap away.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react'
import { Fingerprint, KeyRound, LoaderCircle, Plus, ShieldAlert, Trash2, X } from 'lucide-react'
import {
  PRESENCE_POLICIES,
  RISK_CATEGORIES,
  RISK_CATEGORY_LABEL,
  RISK_KINDS,
  riskyProblem,
  type PresencePolicy,
  type RiskCategory,
  type RiskKind,
  type RiskyPattern
} from '../../../../shared/approvals/presence'
import { hashParams } from '../../../../shared/links'
import { useEnrol, usePresence, useRemoveAuthenticator, useSetPolicy } from '../../api/presence-queries'
import { SubmitButton } from '../../components/action-button'
import { TextField } from '../../components/form-field'
import { ErrorState, InlineError, LoadingState } from '../../components/state-views'
import { Visible } from '../../components/visible'
import { useHash } from '../../lib/muse-route'
import { presenceUnavailable } from '../../lib/webauthn'

const POLICY_TEXT: Record<PresencePolicy, { label: string; hint: string }> = {
  off: {
    label: 'Off',
    hint: 'A one-tap decision signed with this Muster’s key approves. An agent running as you can approve its own calls.'
  },
  risky: { label: 'Risky calls', hint: 'Presence for the calls on the risky list below; one tap for the rest.' },
  'every-allow': { label: 'Every allow', hint: 'Presence for every allow. Deny is always one tap.' }
}

/** The risky list, grouped by category, each entry removable, with a row to add one. */
function RiskyEditor({ list, onChange }: { list: RiskyPattern[]; onChange: (next: RiskyPattern[]) => void }) {
  const id = useId()
  const [kind, setKind] = useState<RiskKind>('shell')
  const [pattern, setPattern] = useState('')
  const [category, setCategory] = useState<RiskCategory>('custom')
  const candidate = { kind, pattern: pattern.trim(), category }
  const problem = pattern.trim() ? riskyProblem(candidate) : null
  const add = (e: FormEvent): void => {
    e.preventDefault()
    if (!candidate.pattern || problem) return
    if (!list.some((p) => p.kind === kind && p.pattern === candidate.pattern)) onChange([...list, candidate])
    setPattern('')
  }
  return (
    <div className="presence-risky" data-testid="presence-risky">
      {RISK_CATEGORIES.map((cat) => {
        const of = list.filter((p) => p.category === cat)
        if (!of.length) return null
        return (
          <div key={cat} className="presence-risky-group">
            <h4>{RISK_CATEGORY_LABEL[cat]}</h4>
            <ul>
              {of.map((p) => (
                <li key={`${p.kind}:${p.pattern}`} className="presence-risky-item">
                  <span className="muted">{p.kind}</span> <code>{p.pattern}</code>
                  <button
                    type="button"
                    className="btn-icon btn-icon-sm"
                    aria-label={`Remove ${p.kind} ${p.pattern}`}
                    onClick={() => onChange(list.filter((x) => x !== p))}
                  >
                    <X size={12} aria-hidden />
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )
      })}
      <form className="presence-risky-add" onSubmit={add}>
        <label className="sr-only" htmlFor={`${id}-kind`}>
          Kind
        </label>
        <select id={`${id}-kind`} className="input" value={kind} onChange={(e) => setKind(e.target.value as RiskKind)}>
          {RISK_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <label className="sr-only" htmlFor={`${id}-pattern`}>
          Pattern
        </label>
        <input
          id={`${id}-pattern`}
          className="input mono"
          value={pattern}
          onChange={(e) => setPattern(e.target.value)}
          placeholder={kind === 'shell' ? 'terraform apply' : kind === 'path' ? '~/.config/secrets/**' : 'mcp__prod__*'}
          data-testid="presence-risky-pattern"
        />
        <label className="sr-only" htmlFor={`${id}-cat`}>
          Category
        </label>
        <select id={`${id}-cat`} className="input" value={category} onChange={(e) => setCategory(e.target.value as RiskCategory)}>
          {RISK_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {RISK_CATEGORY_LABEL[c]}
            </option>
          ))}
        </select>
        <button type="submit" className="btn" disabled={!candidate.pattern || !!problem} data-testid="presence-risky-add">
          <Plus size={14} aria-hidden /> Add
        </button>
      </form>
      {problem && <p className="hint text-error">{problem}</p>}
    </div>
  )
}

/** The Presence section of Settings. */
export function PresencePanel() {
  const q = usePresence()
  const enrol = useEnrol()
  const setPolicy = useSetPolicy()
  const remove = useRemoveAuthenticator()
  const hash = useHash()
  const params = useMemo(() => (hash.startsWith('#/settings') ? hashParams(hash) : new URLSearchParams()), [hash])
  const asked = params.get('presence')
  const id = useId()
  const [name, setName] = useState(params.get('name') ?? '')
  const [policy, setPolicyChoice] = useState<PresencePolicy | null>(null)
  const [risky, setRisky] = useState<RiskyPattern[] | null>(null)
  const ref = useRef<HTMLDivElement>(null)
  const unavailable = presenceUnavailable()
  // a link from `muster presence policy X` chooses X; the operator confirms with one tap
  const wanted = params.get('policy')
  const linked =
    asked === 'policy' && wanted && (PRESENCE_POLICIES as readonly string[]).includes(wanted) ? (wanted as PresencePolicy) : null
  useEffect(() => {
    if (asked) ref.current?.scrollIntoView({ block: 'start' })
  }, [asked])
  if (q.isPending) return <LoadingState />
  if (!q.data)
    return (
      <ErrorState title="Could not read the presence settings" error={q.error} onRetry={() => void q.refetch()} retrying={q.isFetching} />
    )
  const st = q.data
  const chosen = policy ?? (linked && linked !== st.policy ? linked : st.policy)
  const list = risky ?? st.risky
  const dirty = chosen !== st.policy || risky !== null
  const enrolled = st.credentials.length
  const busy = enrol.isPending || setPolicy.isPending || remove.isPending
  const confirm = (label: string) =>
    enrolled ? (
      <>
        <Fingerprint size={14} aria-hidden /> {label} with your authenticator
      </>
    ) : (
      label
    )
  return (
    <div className="presence" ref={ref} data-testid="presence-panel">
      {st.warning && (
        <p className="presence-warning" role="alert" data-testid="presence-warning">
          <ShieldAlert size={16} aria-hidden /> <strong>{st.warning[0]!.toUpperCase() + st.warning.slice(1)}.</strong>{' '}
          {enrolled ? 'The policy is off: choose one below.' : 'Enrol an authenticator, then choose a policy.'}
        </p>
      )}
      {unavailable && (
        <p className="hint text-error" data-testid="presence-unavailable">
          {unavailable}.
        </p>
      )}
      <h3 className="presence-h">Authenticators</h3>
      {enrolled ? (
        <ul className="presence-creds" data-testid="presence-credentials">
          {st.credentials.map((c) => (
            <li key={c.id} className="presence-cred" data-testid="presence-credential">
              <KeyRound size={16} aria-hidden />
              <span className="presence-cred-name">
                <Visible text={c.name} />
              </span>
              <span className="muted presence-cred-where">
                {c.rp_id} · enrolled {new Date(c.created_at).toLocaleDateString()}
              </span>
              <button
                type="button"
                className={`btn${asked === 'remove' && params.get('id') === c.id ? ' btn-danger' : ''}`}
                onClick={() => remove.mutate({ id: c.id, enrolled })}
                disabled={busy || (enrolled === 1 && st.policy !== 'off')}
                title={enrolled === 1 && st.policy !== 'off' ? 'Set the policy to off before removing the last one' : undefined}
                data-testid="presence-remove"
              >
                <Trash2 size={14} aria-hidden /> Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None yet.</p>
      )}
      <form
        className="field-row"
        onSubmit={(e) => {
          e.preventDefault()
          enrol.mutate({ name: name.trim() || 'authenticator' }, { onSuccess: () => setName('') })
        }}
      >
        <TextField
          label="Name"
          fieldClass="field-grow"
          value={name}
          onChange={setName}
          maxLength={80}
          placeholder="phone, YubiKey, this laptop"
          testId="presence-name"
        />
        <SubmitButton
          busy={enrol.isPending}
          icon={Plus}
          className={`btn field-submit${asked === 'enrol' ? ' btn-primary' : ''}`}
          disabled={busy || !!unavailable}
          testId="presence-enrol"
        >
          {enrolled ? 'Enrol another' : 'Enrol an authenticator'}
        </SubmitButton>
      </form>
      {enrolled > 0 && <p className="hint">Another authenticator joins only with the presence of one already enrolled.</p>}
      <InlineError error={enrol.error ?? remove.error} />

      <h3 className="presence-h">Policy</h3>
      <fieldset className="presence-policy" disabled={busy}>
        <legend className="sr-only">Presence policy</legend>
        {PRESENCE_POLICIES.map((p) => (
          <label key={p} className={`presence-choice${chosen === p ? ' chosen' : ''}`}>
            <input
              type="radio"
              name={`${id}-policy`}
              value={p}
              checked={chosen === p}
              disabled={p !== 'off' && !enrolled}
              onChange={() => setPolicyChoice(p)}
              data-testid={`presence-policy-${p}`}
            />
            <span>
              <strong>{POLICY_TEXT[p].label}</strong>
              <span className="hint">{POLICY_TEXT[p].hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <details className="presence-risky-wrap" open={chosen === 'risky' || risky !== null}>
        <summary>Risky list ({list.length})</summary>
        <RiskyEditor list={list} onChange={setRisky} />
      </details>
      <div className="presence-save">
        <button
          type="button"
          className={`btn${dirty ? ' btn-primary' : ''}`}
          disabled={!dirty || busy || (!!enrolled && !!unavailable)}
          onClick={() =>
            setPolicy.mutate(
              { policy: chosen, risky: list, enrolled },
              {
                onSuccess: () => {
                  setPolicyChoice(null)
                  setRisky(null)
                }
              }
            )
          }
          data-testid="presence-save"
        >
          {setPolicy.isPending ? <LoaderCircle size={14} className="spin" aria-hidden /> : null}
          {confirm('Save')}
        </button>
        {dirty && (
          <button
            type="button"
            className="link-btn"
            onClick={() => {
              setPolicyChoice(null)
              setRisky(null)
            }}
          >
            Discard
          </button>
        )}
      </div>
      <InlineError error={setPolicy.error} />
    </div>
  )
}
