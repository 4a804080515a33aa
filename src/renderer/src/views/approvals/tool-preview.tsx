/**
 * A readable preview of a tool call: the Bash command as a terminal line, Edit/MultiEdit as a
 * line diff of each replacement (jsdiff), Write as the new file's lines, an MCP call as server,
 * tool and arguments. What the call is comes from the shared `readToolCall`, the same reading the
 * hook uses for its summary and the allowlist for matching.
 */
import { diffLines } from 'diff'
import type { ReactNode } from 'react'
import { readToolCall, type TextEdit, type ToolCall, type ToolInput } from '../../../../shared/approvals/tool-call'
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

/** A call's arguments as indented JSON. */
function ArgsView({ args }: { args: unknown }) {
  return (
    <pre className="appr-code">
      <Visible text={JSON.stringify(args, null, 2)} multiline />
    </pre>
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
  return (
    <div className="appr-preview" data-testid="tool-preview" data-kind={call.kind}>
      <CallView call={call} path={path} />
      {truncated && (
        <p className="hint">The input was too large for the request; the preview is cut (the full input is attached to the event).</p>
      )}
    </div>
  )
}

/** What the call does, as its kind shows it best. */
function CallView({ call, path }: { call: ToolCall; path: (p: string) => ReactNode }) {
  switch (call.kind) {
    case 'bash':
      return (
        <>
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
        </>
      )
    case 'edit':
      return (
        <>
          <p className="appr-path mono">{path(call.path)}</p>
          {call.edits.map((e, i) => (
            <EditDiff key={i} edit={e} index={i} count={call.edits.length} />
          ))}
        </>
      )
    case 'write': {
      const lines = call.content.split('\n')
      const shown = lines.slice(0, MAX_WRITE_LINES).join('\n')
      return (
        <>
          <p className="appr-path mono">
            {path(call.path)} <span className="muted">(whole file, {lines.length} lines)</span>
          </p>
          <pre className="appr-code">
            <Lines text={shown} kind="add" />
          </pre>
          {lines.length > MAX_WRITE_LINES && <p className="hint">… and {lines.length - MAX_WRITE_LINES} more lines.</p>}
        </>
      )
    }
    case 'mcp':
      return (
        <>
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
          <ArgsView args={call.args} />
        </>
      )
    case 'fetch':
      return (
        <>
          <p className="appr-path mono">
            <Visible text={call.url} />
          </p>
          {call.prompt && (
            <p className="appr-why">
              <Visible text={call.prompt} multiline />
            </p>
          )}
        </>
      )
    case 'path':
      return <p className="appr-path mono">{path(call.path)}</p>
    case 'other':
      return <ArgsView args={call.args} />
  }
}
