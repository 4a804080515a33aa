/**
 * "Approve and always allow": the rule Muster proposes for a request, shown (and editable) before
 * it is saved, with a live check that it matches this request, and the exact grant in words: what
 * Muster's rule allows and what the agent's tool itself keeps (`native-grant.ts`).
 */
import { useId, useState } from 'react'
import { proposeRule, ruleDeclined, ruleLabel, ruleMatches, ruleProblem, type RuleSpec } from '../../../../shared/approvals/allow-rules'
import { dangerousArgs, dangerWhy } from '../../../../shared/approvals/dangerous-args'
import { readToolCall } from '../../../../shared/approvals/tool-call'
import { nativeGrantWords } from '../../../../shared/approvals/native-grant'
import { ruleWords } from '../../../../shared/approvals/rule-words'
import { unreadableInput } from '../../../../shared/approvals/tool-call'
import type { ApprovalItem } from '../../../../shared/api'
import { InlineError } from '../../components/state-views'
import { CancelButton } from '../../components/cancel-button'

/** The proposal form; `onSave` saves the rule and approves the request. */
export function RuleProposal({
  item,
  busy,
  error,
  onSave,
  onCancel
}: {
  item: ApprovalItem
  busy: boolean
  error: unknown
  onSave: (rule: RuleSpec) => void
  onCancel: () => void
}) {
  const [rule, setRule] = useState<RuleSpec>(() =>
    proposeRule({ agent: item.agent, tool_name: item.tool_name, tool_input: item.tool_input, cwd: item.cwd })
  )
  const id = useId()
  // a rule can never be broader than what the operator saw: none for arguments nobody could read
  const unreadable = unreadableInput(item.tool_name, item.tool_input)
  const problem = unreadable ? `no rule can be offered for ${unreadable}: approve it once instead` : ruleProblem(rule)
  const call = {
    agent: item.agent,
    tool_name: item.tool_name,
    tool_input: item.tool_input,
    cwd: item.cwd,
    provenance: item.provenance ?? null
  }
  const matches = !problem && ruleMatches(rule, call)
  // why a wildcard rule was not proposed, and why an edited one would not match
  const tc = readToolCall(item.tool_name, item.tool_input)
  const danger = !unreadable && tc.kind === 'bash' ? (dangerousArgs(tc.command.trim())[0] ?? null) : null
  const declined = !problem && !matches ? ruleDeclined(rule, call) : null
  const field = (key: keyof RuleSpec, label: string, hint: string) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        className="input mono"
        value={rule[key]}
        onChange={(e) => setRule({ ...rule, [key]: e.target.value })}
        aria-describedby={`${id}-${key}-hint`}
        data-testid={`rule-${key}`}
      />
      <span id={`${id}-${key}-hint`} className="hint">
        {hint}
      </span>
    </div>
  )
  return (
    <form
      className="appr-proposal"
      data-testid="rule-proposal"
      onSubmit={(e) => {
        e.preventDefault()
        if (!problem && matches) onSave(rule)
      }}
    >
      <h3>Always allow</h3>
      <p className="hint">
        Future calls matching this rule are approved at once and recorded as decided by <code>allowlist:{ruleLabel(rule)}</code>. Patterns
        read as Claude Code&apos;s: <code>npm run lint *</code> is a prefix with a word boundary (never past{' '}
        <code>; &amp; | &lt; &gt; $</code> or a backtick); in paths <code>*</code> stays in one folder and <code>**</code> crosses folders (
        <code>//</code> from the root, <code>/</code> from the project); <code>domain:host</code> for fetches.
      </p>
      {field('agent_pattern', 'Agents', 'which agents (e.g. mac-* or *)')}
      {field('tool_name', 'Tool', 'tool name, e.g. Bash or mcp__mempalace__*')}
      {field('input_pattern', 'Input', 'the command, the file path, or the arguments')}
      <p className="appr-rule-label" data-testid="rule-label">
        Rule: <code>{ruleLabel(rule)}</code>{' '}
        {problem ? (
          <span className="text-error">{problem}</span>
        ) : matches ? (
          <span className="text-ok">matches this request</span>
        ) : (
          <span className="text-error" data-testid="rule-declined-why">
            does not match this request{declined ? `: ${declined}` : ''}
          </span>
        )}
      </p>
      {danger && (
        <p className="hint" data-testid="rule-exact-why">
          Only the exact command is offered: no wildcard covers {dangerWhy(danger)}.
        </p>
      )}
      <div className="appr-grant" data-testid="grant-words">
        <p>
          <strong>You grant:</strong> <span data-testid="grant-rule">{problem ? '—' : ruleWords(rule)}</span>
        </p>
        <p data-testid="grant-native">{nativeGrantWords(item)}</p>
      </div>
      <InlineError error={error} />
      <div className="appr-actions">
        <button type="submit" className="btn btn-primary" disabled={busy || !!problem || !matches} data-testid="rule-save">
          Save rule and approve
        </button>
        <CancelButton onClick={onCancel} />
      </div>
    </form>
  )
}
