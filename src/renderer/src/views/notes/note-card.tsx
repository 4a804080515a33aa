/** One squad note: who, what type, when, its one-line summary, its other fields, and its flags. */
import { ArrowUpFromLine, Archive } from 'lucide-react'
import type { NoteFinding, SquadNote } from '../../../../shared/api'
import { Chip } from '../../components/chip'
import { Visible } from '../../components/visible'
import { visibleTitle } from '../../../../shared/visible-text'

/** Fields shown in the card's header or summary, not repeated below. */
const SHOWN = new Set(['agent', 'timestamp', 'type', 'promote_to_permanent', 'archive_on_close'])

function Value({ value }: { value: unknown }) {
  if (typeof value === 'string')
    return (
      <span className="nc-text">
        <Visible text={value} multiline keepTabs />
      </span>
    )
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return <span className="num">{String(value)}</span>
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return (
      <ul className="nc-list">
        {value.map((v, i) => (
          <li key={i}>
            <Visible text={v} multiline keepTabs />
          </li>
        ))}
      </ul>
    )
  }
  return (
    <code className="nc-json">
      <Visible text={JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ')} />
    </code>
  )
}

/** The card; `findings` are the ones about this note. */
export function NoteCard({ note, findings }: { note: SquadNote; findings: readonly NoteFinding[] }) {
  const fields = Object.entries(note.data).filter(([k]) => !SHOWN.has(k))
  return (
    <article
      className={`note-card${findings.some((f) => f.level === 'error') ? ' note-card-error' : ''}`}
      data-testid="note-card"
      aria-label={`Note by ${note.agent ? visibleTitle(note.agent) : 'unknown agent'}`}
    >
      <header className="nc-head">
        <strong className="nc-agent">{note.agent ? <Visible text={note.agent} /> : <em className="muted">no agent</em>}</strong>
        {note.type && (
          <Chip tone={note.type === 'decision' ? 'accent' : 'neutral'}>
            <Visible text={note.type} max={200} />
          </Chip>
        )}
        <span className="nc-time mono" title="timestamp">
          {note.timestamp ? <Visible text={note.timestamp} max={200} /> : 'no timestamp'}
        </span>
        <span className="card-spacer" />
        <span className="nc-line muted" title="Line in the note body">
          line {note.line}
        </span>
      </header>
      <dl className="nc-fields">
        {fields.map(([k, v]) => (
          <div key={k} className="nc-field">
            <dt>
              <Visible text={k} max={200} />
            </dt>
            <dd>
              <Value value={v} />
            </dd>
          </div>
        ))}
      </dl>
      {(note.promote || note.archive) && (
        <div className="nc-flags">
          {note.promote && (
            <Chip tone="ok" title="promote_to_permanent: appended to decisions.md once the commit is merged">
              <ArrowUpFromLine size={11} aria-hidden /> promote to decisions.md
            </Chip>
          )}
          {note.archive && (
            <Chip tone="neutral" title="archive_on_close: archived under research/ when the commit is never merged">
              <Archive size={11} aria-hidden /> archive on close
            </Chip>
          )}
        </div>
      )}
      {findings.map((f, i) => (
        <p key={i} className={`nc-finding ${f.level === 'error' ? 'text-error' : 'nl-warn'}`}>
          <Visible text={f.message} />
        </p>
      ))}
    </article>
  )
}
