/**
 * The Notes screen (`#/notes?project=X`): a project's squad git notes per commit and agent, in
 * every body shape, with the findings (unparseable bodies, schema, namespaces, refs, refspecs),
 * live as agents write notes, and promotion into decisions.md (dry run first).
 */
import { useMemo, useState } from 'react'
import { ArrowUpFromLine, CircleAlert, GitBranch, Search, StickyNote, TriangleAlert } from 'lucide-react'
import { useNotes, useProjects } from '../../api/queries'
import { Chip } from '../../components/chip'
import { CopyButton } from '../../components/copy-button'
import { FilterSelect } from '../../components/filter-select'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState, LoadingState } from '../../components/state-views'
import { plural } from '../../lib/format'
import { CommitDetail } from './commit-detail'
import { CommitList } from './commit-list'
import { commitRows, findingsByCommit, vocabulary, type NotesFilters } from './notes-model'
import { PromoteDialog } from './promote-dialog'
import { useNotesProject } from './use-notes-project'
import { SearchBox } from '../../components/search-box'
import { RefreshButton } from '../../components/refresh-button'

const NO_FILTERS: NotesFilters = { namespace: '', type: '', text: '', onlyFindings: false }

/** The filters by a name the notes use: the filter, its names in the vocabulary, its labels. */
const VOCABULARY_FILTERS = [
  { key: 'namespace', list: 'namespaces', labels: { allLabel: 'All namespaces', ariaLabel: 'Namespace', testId: 'notes-namespace' } },
  { key: 'type', list: 'types', labels: { allLabel: 'All types', ariaLabel: 'Note type', testId: 'notes-type' } }
] as const

/** The screen. */
export function NotesScreen() {
  const projectsQuery = useProjects()
  const names = useMemo(() => projectsQuery.data?.map((p) => p.name), [projectsQuery.data])
  const [project, setProject] = useNotesProject(names)
  const notes = useNotes(project)
  const [filters, setFilters] = useState<NotesFilters>(NO_FILTERS)
  const [selected, setSelected] = useState<string | null>(null)
  const [promoting, setPromoting] = useState(false)
  const snap = notes.data

  const byCommit = useMemo(() => findingsByCommit(snap?.findings ?? []), [snap])
  const rows = useMemo(() => (snap ? commitRows(snap, byCommit, filters) : []), [snap, byCommit, filters])
  const vocab = useMemo(() => (snap ? vocabulary(snap) : { namespaces: [], types: [] }), [snap])
  const current = rows.find((r) => r.commit.sha === selected)?.commit ?? rows[0]?.commit ?? null
  const repoWide = byCommit.get('') ?? []
  const set = (patch: Partial<NotesFilters>) => setFilters((f) => ({ ...f, ...patch }))
  const pick = (p: string) => {
    setProject(p)
    setFilters(NO_FILTERS)
    setSelected(null)
  }

  const actions = (
    <>
      <FilterSelect value={project} onChange={pick} options={names ?? []} ariaLabel="Project" testId="notes-project" />
      <RefreshButton query={notes} label="Reload notes" size={15} disabled={!project} />
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => setPromoting(true)}
        disabled={!snap?.repo || snap.counts.notes === 0}
        title={snap?.repo && snap.counts.notes === 0 ? 'No notes to promote' : undefined}
        data-testid="notes-promote"
      >
        <ArrowUpFromLine size={14} aria-hidden /> Promote…
      </button>
    </>
  )

  let body
  if (projectsQuery.isError)
    body = <ErrorState title="Could not list projects" error={projectsQuery.error} onRetry={() => void projectsQuery.refetch()} />
  else if (names && names.length === 0) {
    body = (
      <EmptyState icon={<StickyNote size={18} />} title="No projects registered">
        Add a project folder (Overview or Settings); its git repository’s notes appear here.
      </EmptyState>
    )
  } else if (notes.isError)
    body = (
      <ErrorState
        title={`Could not read ${project}’s notes`}
        error={notes.error}
        onRetry={() => void notes.refetch()}
        retrying={notes.isFetching}
      />
    )
  else if (!snap) body = <LoadingState label="Reading notes…" />
  else if (!snap.repo) {
    body = (
      <EmptyState icon={<GitBranch size={18} />} title={`${project} has no git repository`}>
        {snap.problem}
      </EmptyState>
    )
  } else if (snap.counts.bodies === 0 && snap.findings.length === 0) {
    body = (
      <EmptyState icon={<StickyNote size={18} />} title={`No squad notes in ${project}’s repository yet`}>
        Agents write them with <code>git notes --ref=squad/&lt;agent&gt; append -m '{'{…}'}' HEAD</code> or <code>muster notes write</code>.
        Fetched notes need the refspec <code>refs/notes/*:refs/notes/*</code>.
      </EmptyState>
    )
  } else {
    body = (
      <>
        <div className="notes-summary" data-testid="notes-summary">
          <span className="mono notes-repo" title={snap.repo}>
            {snap.repo}
          </span>
          {snap.defaultBranch && (
            <Chip tone="mono" title="Default branch: notes on commits it reaches are promoted">
              <GitBranch size={11} aria-hidden /> {snap.defaultBranch.replace(/^refs\/(heads|remotes)\//, '')}
            </Chip>
          )}
          {snap.stateBackend?.branch && (
            <Chip
              tone="mono"
              title={`.squad/config.json stateBackend ${snap.stateBackend.kind}: Squad keeps decisions, promoted and archived notes on this orphan branch; Muster reads it and leaves writing it to squad notes promote`}
              data-testid="notes-state-branch"
            >
              <GitBranch size={11} aria-hidden /> state kept on branch {snap.stateBackend.branch}
              {snap.stateBackend.branchExists ? ` (${plural(snap.stateFiles ?? 0, 'file')})` : ' (not created yet)'}
            </Chip>
          )}
          <span className="notes-counts">
            {plural(snap.counts.notes, 'note')} on {plural(snap.counts.commits, 'commit')} in {plural(snap.refs.length, 'ref')}
          </span>
          <span className="card-spacer" />
          <button
            type="button"
            className={`notes-findings-toggle${filters.onlyFindings ? ' active' : ''}`}
            aria-pressed={filters.onlyFindings}
            onClick={() => set({ onlyFindings: !filters.onlyFindings })}
            title="Show only commits with findings"
            data-testid="notes-findings-toggle"
          >
            <CircleAlert size={13} aria-hidden className="text-error" /> {plural(snap.counts.errors, 'error')}
            <TriangleAlert size={13} aria-hidden className="nl-warn" /> {plural(snap.counts.warnings, 'warning')}
          </button>
        </div>
        {repoWide.map((f, i) => (
          <div key={i} className={`notes-repo-finding ${f.level}`} role="note" data-testid="notes-repo-finding">
            {f.level === 'error' ? <CircleAlert size={14} aria-hidden /> : <TriangleAlert size={14} aria-hidden />}
            <span>{f.message}</span>
            {/: (git .*)$/.test(f.message) && <CopyButton text={/: (git .*)$/.exec(f.message)![1]!} label="Copy the fix" />}
          </div>
        ))}
        <div className="notes-filters" role="search">
          {VOCABULARY_FILTERS.map(({ key, list, labels }) => (
            <FilterSelect key={key} value={filters[key]} onChange={(v) => set({ [key]: v })} options={vocab[list]} {...labels} />
          ))}
          <SearchBox
            className="notes-search"
            value={filters.text}
            onChange={(text) => set({ text })}
            placeholder="Filter by sha, subject, agent, text…"
            label="Filter notes"
          />
          <span className="muted notes-shown">{plural(rows.length, 'commit')} shown</span>
        </div>
        <div className="screen-split notes-split">
          <div className="split-main notes-main">
            {rows.length ? (
              <CommitList rows={rows} selected={current?.sha ?? null} onSelect={setSelected} />
            ) : (
              <EmptyState icon={<Search size={18} />} title="No commit matches the filters" />
            )}
          </div>
          <aside className="split-main notes-side" aria-label="Selected commit">
            {current && <CommitDetail commit={current} findings={byCommit.get(current.sha) ?? []} defaultBranch={snap.defaultBranch} />}
          </aside>
        </div>
      </>
    )
  }

  return (
    <section className="screen screen-fill" data-testid="screen-notes" aria-label="Notes">
      <ScreenHeader
        title="Notes"
        description="Agents’ squad git notes (refs/notes/squad/*) per commit, every body shape, with findings; promote decisions into decisions.md."
        actions={actions}
      />
      {body}
      {project && <PromoteDialog project={project} open={promoting} onClose={() => setPromoting(false)} />}
    </section>
  )
}
