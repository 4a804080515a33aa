/**
 * The allowlist: rules that approve matching calls at once (recorded as `allowlist:<rule>`), each
 * with how often it fired. Add, change and delete; the rule's label and any problem with it are
 * shown as you type.
 */
import { useId, useState } from 'react'
import { Pencil, ShieldCheck, Trash2 } from 'lucide-react'
import { ruleLabel, ruleProblem, type RuleSpec } from '../../../../shared/approvals/allow-rules'
import type { AllowRule } from '../../../../shared/api'
import { useAllowRules, useDeleteRule, useSaveRule } from '../../api/approval-queries'
import { RelativeTime } from '../../components/relative-time'
import { EmptyState, ErrorState, InlineError, LoadingState } from '../../components/state-views'
import { Chip } from '../../components/chip'
import { Visible } from '../../components/visible'
import { CancelButton } from '../../components/cancel-button'
import { TableHead, type Column } from '../../components/table-head'

const RULE_COLUMNS: readonly Column[] = [
  'Rule',
  'Agents',
  'Tool',
  'Input',
  { label: 'Fired', num: true },
  'Last fired',
  { label: 'Actions', srOnly: true }
]

const EMPTY: RuleSpec & { note: string } = { agent_pattern: '*', tool_name: 'Bash', input_pattern: '', note: '' }

function RuleForm({ editing, onDone }: { editing: AllowRule | null; onDone: () => void }) {
  const save = useSaveRule()
  const [rule, setRule] = useState(() => (editing ? { ...editing, note: editing.note ?? '' } : EMPTY))
  const id = useId()
  const problem = ruleProblem(rule)
  const set = (key: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) => setRule({ ...rule, [key]: e.target.value })
  return (
    <form
      className="appr-rule-form"
      data-testid="rule-form"
      onSubmit={(e) => {
        e.preventDefault()
        if (problem) return
        save.mutate(
          {
            ...(editing ? { id: editing.id } : {}),
            agent_pattern: rule.agent_pattern,
            tool_name: rule.tool_name,
            input_pattern: rule.input_pattern,
            ...(rule.note ? { note: rule.note } : {})
          },
          {
            onSuccess: () => {
              setRule(EMPTY)
              onDone()
            }
          }
        )
      }}
    >
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-a`}>Agents</label>
          <input
            id={`${id}-a`}
            className="input mono"
            value={rule.agent_pattern}
            onChange={set('agent_pattern')}
            data-testid="rule-form-agent"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-t`}>Tool</label>
          <input id={`${id}-t`} className="input mono" value={rule.tool_name} onChange={set('tool_name')} data-testid="rule-form-tool" />
        </div>
        <div className="field field-grow">
          <label htmlFor={`${id}-i`}>Input pattern</label>
          <input
            id={`${id}-i`}
            className="input mono"
            value={rule.input_pattern}
            onChange={set('input_pattern')}
            placeholder="npm test*"
            data-testid="rule-form-input"
          />
        </div>
        <div className="field field-grow">
          <label htmlFor={`${id}-n`}>Note</label>
          <input id={`${id}-n`} className="input" value={rule.note} onChange={set('note')} placeholder="why this is safe" />
        </div>
        <button type="submit" className="btn btn-primary" disabled={!!problem || save.isPending} data-testid="rule-form-save">
          {editing ? 'Save rule' : 'Add rule'}
        </button>
        {editing && <CancelButton onClick={onDone} />}
      </div>
      <p className="hint">
        {rule.input_pattern && rule.tool_name ? (
          <>
            Rule <code>{ruleLabel(rule)}</code>
            {problem ? <span className="text-error"> — {problem}</span> : null}.{' '}
          </>
        ) : null}
        Globs: <code>*</code> any text, <code>?</code> one character, <code>\</code> makes the next one literal. In shell commands{' '}
        <code>*</code> never reaches past <code>; &amp; | &lt; &gt; $</code>, a backtick or a line break.
      </p>
      <InlineError error={save.error} />
    </form>
  )
}

/** The rules tab. */
export function RulesEditor() {
  const rules = useAllowRules()
  const del = useDeleteRule()
  const [editing, setEditing] = useState<AllowRule | null>(null)
  if (rules.isPending) return <LoadingState label="Reading the allowlist…" />
  if (rules.isError)
    return (
      <ErrorState
        title="Could not read the allowlist"
        error={rules.error}
        onRetry={() => void rules.refetch()}
        retrying={rules.isFetching}
      />
    )
  const list = rules.data.rules
  return (
    <div className="appr-rules">
      <RuleForm key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
      <InlineError error={del.error} />
      {list.length === 0 ? (
        <EmptyState icon={<ShieldCheck size={18} />} title="No allowlist rules">
          Every tool call is asked for. Add a rule above, or use “Approve and always allow this…” on a request.
        </EmptyState>
      ) : (
        <table className="appr-rules-table" data-testid="rules-table">
          <TableHead columns={RULE_COLUMNS} />
          <tbody>
            {list.map((r) => (
              <tr key={r.id} data-testid={`rule-row-${r.id}`}>
                <td>
                  <code>
                    <Visible text={r.label} />
                  </code>
                  {!r.trusted && (
                    <Chip
                      tone="error"
                      title="no trusted operator key signed this rule (a row written outside Muster, or a rule from before signing): it answers no hook; save it again to sign it"
                      data-testid="rule-untrusted"
                    >
                      not signed: {r.untrusted_reason ?? 'unsigned'}
                    </Chip>
                  )}
                  {r.note && (
                    <div className="muted">
                      <Visible text={r.note} />
                    </div>
                  )}
                </td>
                <td className="mono">{r.agent_pattern}</td>
                <td className="mono">{r.tool_name}</td>
                <td className="mono">{r.input_pattern}</td>
                <td className="num" data-testid="rule-hits">
                  {r.hits}
                </td>
                <td>{r.last_hit_at ? <RelativeTime iso={r.last_hit_at} /> : <span className="muted">never</span>}</td>
                <td className="appr-rule-actions">
                  <button type="button" className="btn-icon" onClick={() => setEditing(r)} aria-label={`Edit rule ${r.label}`} title="Edit">
                    <Pencil size={14} />
                  </button>
                  <button
                    type="button"
                    className="btn-icon"
                    onClick={() => del.mutate({ id: r.id })}
                    aria-label={`Delete rule ${r.label}`}
                    title="Delete"
                    data-testid={`rule-delete-${r.id}`}
                  >
                    <Trash2 size={14} />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
