/** The selected commit: its message, whether it is merged, and every note body on it by ref. */
import { CircleAlert, GitBranch, GitCommitHorizontal, TriangleAlert } from 'lucide-react'
import type { NoteBody, NoteFinding, NotedCommit } from '../../../../shared/api'
import { Chip } from '../../components/chip'
import { CopyButton } from '../../components/copy-button'
import { formatBytes, plural } from '../../lib/format'
import { NoteCard } from './note-card'
import { SHAPE_LABELS, shortSha } from './notes-model'
import { Visible } from '../../components/visible'
import { visibleTitle } from '../../../../shared/visible-text'

function Body({ body, findings }: { body: NoteBody; findings: readonly NoteFinding[] }) {
  const shape = SHAPE_LABELS[body.shape]
  const mine = findings.filter((f) => f.ref === body.ref)
  return (
    <section className="nd-body" aria-label={`Notes in ${visibleTitle(body.ref)}`} data-testid="note-body" data-shape={body.shape}>
      <header className="nd-body-head">
        <span className="mono nd-ref">
          <Visible text={body.ref} />
        </span>
        <Chip tone="mono" title={shape.title} data-testid="note-shape">
          {shape.label}
        </Chip>
        {body.unparseable.length > 0 && body.notes.length > 0 && (
          <Chip tone="error" title="Part of this body is not JSON (shown below)">
            damaged
          </Chip>
        )}
        <span className="card-spacer" />
        <span className="muted nd-size">
          {plural(body.notes.length, 'note')} · {formatBytes(body.bytes)}
        </span>
      </header>
      {body.notes.map((n, i) => (
        <NoteCard key={`${n.id}-${i}`} note={n} findings={mine.filter((f) => f.noteId === n.id)} />
      ))}
      {body.unparseable.map((u) => (
        <div key={u.line} className="nd-bad" data-testid="note-unparseable">
          <div className="nd-bad-head text-error">
            <CircleAlert size={13} aria-hidden /> Not JSON, from line {u.line}: kept as written, not dropped
          </div>
          <pre className="mono">
            <Visible text={u.text} multiline keepTabs />
          </pre>
        </div>
      ))}
    </section>
  )
}

/** The pane; `findings` are this commit's. */
export function CommitDetail({
  commit,
  findings,
  defaultBranch
}: {
  commit: NotedCommit
  findings: readonly NoteFinding[]
  defaultBranch: string | null
}) {
  const general = findings.filter((f) => !f.noteId && f.code !== 'unparseable')
  const branch = defaultBranch?.replace(/^refs\/(heads|remotes)\//, '') ?? 'the default branch'
  return (
    <div className="nd" data-testid="notes-detail">
      <div className="nd-id-row">
        <GitCommitHorizontal size={15} aria-hidden className="muted" />
        <span className="mono nd-sha" title={commit.sha}>
          {shortSha(commit.sha)}
        </span>
        <CopyButton text={commit.sha} label="Copy commit sha" />
        <span className="card-spacer" />
        {commit.merged ? (
          <Chip tone="ok" title={`Reachable from ${branch}: flagged notes are promoted`}>
            on {branch}
          </Chip>
        ) : (
          <Chip tone="warning" title={`Not reachable from ${branch}: research marked archive_on_close is archived`}>
            <GitBranch size={11} aria-hidden /> not merged
          </Chip>
        )}
      </div>
      <h2 className="nd-subject">{commit.subject ? <Visible text={commit.subject} /> : 'Commit not in this repository'}</h2>
      <p className="muted nd-meta">
        {commit.author ? <Visible text={commit.author} /> : 'unknown author'}
        {commit.date && <> · {commit.date.replace('T', ' ').replace('Z', ' UTC')}</>}
      </p>
      {general.map((f, i) => (
        <p key={i} className={`nd-finding ${f.level === 'error' ? 'text-error' : 'nl-warn'}`}>
          {f.level === 'error' ? <CircleAlert size={13} aria-hidden /> : <TriangleAlert size={13} aria-hidden />}{' '}
          <Visible text={f.message} />
        </p>
      ))}
      {commit.bodies.map((b) => (
        <Body key={b.ref} body={b} findings={findings} />
      ))}
    </div>
  )
}
