/** Memory search (`#/memory`): ranked hits across daily logs and MEMORIES.md, plus a write form. */
import { useEffect, useMemo, useRef, useState } from 'react'
import { BookOpen, LoaderCircle, Search } from 'lucide-react'
import type { MemoryHit } from '../../../../shared/api'
import { useFleetStatus, useHubInfo, useMemorySearch } from '../../api/queries'
import { Chip } from '../../components/chip'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState } from '../../components/state-views'
import { plural } from '../../lib/format'
import { memoryHref, museRouteFromHash } from '../../lib/muse-route'
import { MuseTabs } from '../directives/muse-tabs'
import { Highlight, queryTerms } from './highlight'
import { MemoryWriteForm } from './memory-write-form'
import { ProjectFilter } from '../../components/filter-select'
import { SearchBox } from '../../components/search-box'

/** Search scopes, as MUSE's own memory search names them. */
type Scope = 'all' | 'recent' | 'longterm'
const SCOPES: { id: Scope; label: string; title: string }[] = [
  { id: 'all', label: 'All', title: 'Daily logs, MEMORIES.md and the rest of memory/' },
  { id: 'recent', label: 'Recent', title: 'Daily logs of the last 3 days' },
  { id: 'longterm', label: 'Long-term', title: 'MEMORIES.md only' }
]

/** Typing pauses this long before a search is sent. */
const DEBOUNCE_MS = 180

function Hit({ hit, terms, rank, ranked }: { hit: MemoryHit; terms: readonly string[]; rank: number; ranked: boolean }) {
  return (
    <li className="mem-hit" data-testid="memory-result">
      <div className="mem-hit-meta">
        <Chip tone="mono">{hit.project}</Chip>
        <span className="mono mem-hit-file" title={`${hit.project}: ${hit.file} line ${hit.line}`}>
          {hit.file}:{hit.line}
        </span>
        {hit.date && <span className="mem-hit-date">{hit.date}</span>}
        {hit.kind && <Chip tone="accent">{hit.kind}</Chip>}
        <span className="card-spacer" />
        <span
          className="mem-hit-score num"
          title={ranked ? `Rank ${rank} (full-text score ${hit.score.toFixed(3)})` : `Result ${rank} (substring match)`}
        >
          #{rank}
        </span>
      </div>
      <p className="mem-hit-text">
        <Highlight text={hit.text.replace(/\*\*/g, '')} terms={terms} />
      </p>
    </li>
  )
}

/** The screen; `initialQuery` comes from `#/memory?q=…`. */
export function MemoryScreen({ initialQuery }: { initialQuery: string }) {
  const [text, setText] = useState(initialQuery)
  const [query, setQuery] = useState(initialQuery)
  const [scope, setScope] = useState<Scope>('all')
  const [project, setProject] = useState('')
  const inputRef = useRef<HTMLInputElement>(null)
  const fleet = useFleetStatus()
  const hub = useHubInfo()
  const projects = useMemo(() => (fleet.data ?? []).map((p) => p.name), [fleet.data])

  useEffect(() => {
    const t = setTimeout(() => {
      setQuery(text.trim())
      // Keep the address shareable without a hashchange (which would remount the screen), unless
      // the operator has already left for another screen (its hashchange not yet handled).
      const href = memoryHref(text.trim())
      if (museRouteFromHash(window.location.hash).kind === 'memory' && window.location.hash !== href)
        window.history.replaceState(window.history.state, '', href)
    }, DEBOUNCE_MS)
    return () => clearTimeout(t)
  }, [text])

  const search = useMemorySearch({ query, scope, limit: 100, ...(project ? { project } : {}) })
  const active = query.length > 0
  const hits = active ? (search.data?.hits ?? []) : []
  const terms = useMemo(() => queryTerms(query), [query])

  return (
    <section className="screen screen-fill" data-testid="memory-search">
      <ScreenHeader
        title="Memory"
        description="Search every project’s daily logs and MEMORIES.md, ranked; write a note to today’s log."
        actions={<MuseTabs current="memory" />}
      />
      <div className="screen-split mem-layout">
        <div className="split-column mem-main">
          <div className="split-bar" role="search">
            <SearchBox
              className="mem-search"
              inputRef={inputRef}
              value={text}
              onChange={setText}
              onKeyDown={(e) => {
                if (e.key === 'Enter') setQuery(text.trim())
              }}
              placeholder="Search memory: 冻结, patch 换行, S052…"
              label="Search memory"
              autoFocus
              testId="memory-query"
              clearLabel="Clear search"
              onClear={() => (setText(''), inputRef.current?.focus())}
            />
            <div className="segmented" role="radiogroup" aria-label="Scope" data-testid="memory-scope">
              {SCOPES.map((s) => (
                <label key={s.id} className={`segment${scope === s.id ? ' active' : ''}`} title={s.title}>
                  <input type="radio" name="memory-scope" value={s.id} checked={scope === s.id} onChange={() => setScope(s.id)} />
                  {s.label}
                </label>
              ))}
            </div>
            <ProjectFilter value={project} onChange={setProject} options={projects} testId="memory-project" />
          </div>

          <div className="mem-status" aria-live="polite">
            {active && search.data && (
              <span data-testid="memory-count">
                {plural(hits.length, 'hit')} for “{query}”
                <span className="muted"> · {search.data.mode === 'fts' ? 'ranked full-text' : 'substring match'}</span>
              </span>
            )}
            {search.isFetching && <LoaderCircle size={13} className="spin muted" aria-label="Searching" />}
          </div>

          {search.isError && active ? (
            <ErrorState title="Search failed" error={search.error} onRetry={() => void search.refetch()} retrying={search.isFetching} />
          ) : !active ? (
            <EmptyState icon={<BookOpen size={18} />} title="Search the fleet’s memory">
              Type a word or phrase in any language. <strong>All</strong> covers every log, <strong>Recent</strong> the last three days,{' '}
              <strong>Long-term</strong> only MEMORIES.md.
            </EmptyState>
          ) : search.data && hits.length === 0 ? (
            <EmptyState icon={<Search size={18} />} title={`Nothing found for “${query}”`}>
              {scope !== 'all' ? 'Try the All scope.' : 'Try fewer or shorter words.'}
            </EmptyState>
          ) : (
            <ol className="split-list rows-divided">
              {hits.map((h, i) => (
                <Hit
                  key={`${h.project}/${h.file}:${h.line}:${i}`}
                  hit={h}
                  terms={terms}
                  rank={i + 1}
                  ranked={search.data?.mode === 'fts'}
                />
              ))}
            </ol>
          )}
        </div>
        <aside className="mem-side">
          <MemoryWriteForm projects={projects} defaultProject={hub.data?.project ?? ''} />
        </aside>
      </div>
    </section>
  )
}
