/**
 * A readable preview of a tool call: the Bash command as a terminal line, Edit/MultiEdit as a
 * line diff of each replacement (jsdiff), Write as the new file's lines, an MCP call as server,
 * tool and arguments. What the call is comes from the shared `readToolCall`, the same reading the
 * hook uses for its summary and the allowlist for matching.
 */
import { diffLines } from 'diff'
import { readToolCall, type TextEdit, type ToolInput } from '../../../../shared/approvals/tool-call'
import { shortPath } from './approval-format'
import { Visible } from '../../components/visible'

/** Longest preview of a written file, in lines (the rest is counted). */
const MAX_WRITE_LINES = 60

function Lines({ text, kind }: { text: string; kind: 'add' | 'del' | 'ctx' }) {
  const lines = text.replace(/\n$/, '').split('\n')
  const mark = kind === 'add' ? '+' : kind === 'del' ? '-' : ' '
  return (
    <>
      {lines.map((l, i) => (
        <span key={i} className={`diff-line diff-${kind}`}>
          <span className="diff-mark" aria-hidden>
            {mark}
          </span>
          {l ? <Visible text={l} /> : ' '}
        </span>
      ))}
    </>
  )
}

function EditDiff({ edit, index, count }: { edit: TextEdit; index: number; count: number }) {
  const parts = diffLines(
    edit.old_string.endsWith('\n') ? edit.old_string : edit.old_string + '\n',
    edit.new_string.endsWith('\n') ? edit.new_string : edit.new_string + '\n'
  )
  return (
    <figure className="appr-diff">
      {count > 1 && (
        <figcaption className="muted">
          Replacement {index + 1} of {count}
          {edit.replace_all ? ' (every occurrence)' : ''}
        </figcaption>
      )}
      {count === 1 && edit.replace_all && <figcaption className="muted">Every occurrence</figcaption>}
      <pre className="appr-code" aria-label="Changes: removed lines start with minus, added lines with plus">
        {parts.map((p, i) => (
          <Lines key={i} text={p.value} kind={p.added ? 'add' : p.removed ? 'del' : 'ctx'} />
        ))}
      </pre>
    </figure>
  )
}

/** The preview of `tool_name` called with `tool_input`. */
export function ToolPreview({
  tool,
  input,
  cwd = null,
  truncated
}: {
  tool: string
  input: ToolInput
  cwd?: string | null
  truncated?: boolean
}) {
  const call = readToolCall(tool, input)
  const path = (p: string) => (
    <span title={p}>
      <Visible text={shortPath(p, cwd)} />
    </span>
  )
  const note = truncated ? (
    <p className="hint">The input was too large for the request; the preview is cut (the full input is attached to the event).</p>
  ) : null
  switch (call.kind) {
    case 'bash':
      return (
        <div className="appr-preview" data-testid="tool-preview" data-kind="bash">
          {call.description && (
            <p className="appr-why">
              <Visible text={call.description} />
            </p>
          )}
          <pre className="appr-code appr-shell">
            <span className="appr-prompt" aria-hidden>
              ${' '}
            </span>
            <Visible text={call.command} multiline />
          </pre>
          {note}
        </div>
      )
    case 'edit':
      return (
        <div className="appr-preview" data-testid="tool-preview" data-kind="edit">
          <p className="appr-path mono">{path(call.path)}</p>
          {call.edits.map((e, i) => (
            <EditDiff key={i} edit={e} index={i} count={call.edits.length} />
          ))}
          {note}
        </div>
      )
    case 'write': {
      const lines = call.content.split('\n')
      const shown = lines.slice(0, MAX_WRITE_LINES).join('\n')
      return (
        <div className="appr-preview" data-testid="tool-preview" data-kind="write">
          <p className="appr-path mono">
            {path(call.path)} <span className="muted">(whole file, {lines.length} lines)</span>
          </p>
          <pre className="appr-code">
            <Lines text={shown} kind="add" />
          </pre>
          {lines.length > MAX_WRITE_LINES && <p className="hint">… and {lines.length - MAX_WRITE_LINES} more lines.</p>}
          {note}
        </div>
      )
    }
    case 'mcp':
      return (
        <div className="appr-preview" data-testid="tool-preview" data-kind="mcp">
          <p className="appr-mcp">
            <span className="muted">MCP server</span>{' '}
            <strong className="mono">
              <Visible text={call.server} />
            </strong>{' '}
            <span className="muted">tool</span>{' '}
            <strong className="mono">
              <Visible text={call.name} />
            </strong>
          </p>
          <pre className="appr-code">
            <Visible text={JSON.stringify(call.args, null, 2)} multiline />
          </pre>
          {note}
        </div>
      )
    case 'fetch':
      return (
        <div className="appr-preview" data-testid="tool-preview" data-kind="fetch">
          <p className="appr-path mono">
            <Visible text={call.url} />
          </p>
          {call.prompt && (
            <p className="appr-why">
              <Visible text={call.prompt} multiline />
            </p>
          )}
        </div>
      )
    case 'path':
      return (
        <div className="appr-preview" data-testid="tool-preview" data-kind="path">
          <p className="appr-path mono">{path(call.path)}</p>
        </div>
      )
    case 'other':
      return (
        <div className="appr-preview" data-testid="tool-preview" data-kind="other">
          <pre className="appr-code">
            <Visible text={JSON.stringify(call.args, null, 2)} multiline />
          </pre>
          {note}
        </div>
      )
  }
}
