/**
 * "May I invoke?": the chain so far, the target, the board-meeting phase and the caller, checked
 * against the four hard rules; when blocked, the `[BLOCKED: ...]` answer to paste instead.
 */
import { useState, type FormEvent } from 'react'
import { CircleCheck, OctagonX, ShieldQuestion } from 'lucide-react'
import { useChainCheck } from '../../api/queries'
import { CopyButton } from '../../components/copy-button'
import { Field, TextField } from '../../components/form-field'
import { InlineError } from '../../components/state-views'

const PHASES = [
  { value: '', label: 'Not in a board meeting' },
  { value: '1', label: 'Board meeting, phase 1' },
  { value: '2', label: 'Phase 2: independent analysis' },
  { value: '3', label: 'Phase 3: critique' }
]

/** The form and its verdict. */
export function ChainCheckForm() {
  const [chain, setChain] = useState('cro → cfo')
  const [target, setTarget] = useState('coo')
  const [phase, setPhase] = useState('')
  const [caller, setCaller] = useState('')
  const check = useChainCheck()
  const r = check.data

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    check.mutate({ chain, target, phase: phase ? (Number(phase) as 1 | 2 | 3) : undefined, caller: caller.trim() || undefined })
  }

  return (
    <form className="panel form cc-form" onSubmit={submit} aria-labelledby="cc-title" data-testid="chain-check">
      <h2 id="cc-title" className="cc-title">
        <ShieldQuestion size={15} aria-hidden /> Check an invocation
      </h2>
      <TextField
        label="Chain so far"
        mono
        value={chain}
        onChange={setChain}
        placeholder="cro → cfo (empty: a first call)"
        testId="chain-check-chain"
      />
      <div className="field-row">
        <TextField
          label="Invoke"
          fieldClass="cc-half"
          mono
          value={target}
          onChange={setTarget}
          placeholder="coo"
          required
          testId="chain-check-target"
        />
        <TextField label="Caller" optional fieldClass="cc-half" mono value={caller} onChange={setCaller} placeholder="executive-mentor" />
      </div>
      <Field label="Context">
        {(id) => (
          <select id={id} className="input select" value={phase} onChange={(e) => setPhase(e.target.value)} data-testid="chain-check-phase">
            {PHASES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={check.isPending}>
          Check
        </button>
      </div>
      <InlineError error={check.error} />
      {r && (
        <div className={`cc-verdict ${r.allowed ? 'ok' : 'blocked'}`} role="status" data-testid="chain-check-verdict">
          <div className="cc-verdict-head">
            {r.allowed ? <CircleCheck size={16} aria-hidden /> : <OctagonX size={16} aria-hidden />}
            <strong>{r.allowed ? 'Allowed' : `Blocked: ${r.rule}`}</strong>
            <span className="mono cc-path">{[...r.chain, r.target].join(' → ')}</span>
          </div>
          {r.reason && <p>{r.reason}</p>}
          {r.blocked && (
            <div className="cc-answer">
              <span className="muted">Answer with:</span>
              <div className="cc-answer-line">
                <pre className="cc-answer-text" data-testid="chain-check-answer">
                  {r.blocked}
                  {'\n'}
                  <span className="muted">{r.assumption}</span>
                </pre>
                <CopyButton text={`${r.blocked}\n${r.assumption}`} label="Copy the BLOCKED answer" />
              </div>
            </div>
          )}
          {r.warnings.map((w) => (
            <p key={w} className="nl-warn">
              {w}
            </p>
          ))}
        </div>
      )}
    </form>
  )
}
