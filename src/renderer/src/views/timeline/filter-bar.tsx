/**
 * One input per hub filter plus body text. Typing is debounced before the query changes (each
 * change starts a new page window), Enter applies at once, and the values live in the URL hash.
 */
import { useEffect, useRef, useState, type Ref } from 'react'
import { Search, X } from 'lucide-react'
import { useTimelineStore } from '../../stores/timeline-store'
import { EVENT_STATUSES, EventType, Room } from '../../../../shared/api'
import { FILTER_FIELDS, FILTER_LABELS, activeFilters, type FilterField, type TimelineFilters } from './timeline-query'

/** How long typing pauses before the list refetches. */
const DEBOUNCE_MS = 250

/** Suggestions for the free-text fields (agents, types, streams the screen has seen). */
export type FilterSuggestions = Partial<Record<FilterField, readonly string[]>>

const PLACEHOLDERS: Record<FilterField, string> = {
  type: EventType.taskRequest,
  from_agent: 'any agent',
  to_agent: 'agent or *',
  correlation_id: 'task_…',
  status: '',
  stream: 'project/…',
  room: Room.delegation,
  topic: 'any',
  text: 'Search bodies…  /'
}

/**
 * The filter bar; `textRef` lets the `/` key focus the body-text field. Enter applies and hands
 * the keyboard to the list (`onLeave`); Esc clears a field, or leaves an empty one.
 */
export function FilterBar({
  suggestions,
  textRef,
  onLeave
}: {
  suggestions: FilterSuggestions
  textRef: Ref<HTMLInputElement>
  onLeave: () => void
}) {
  const filters = useTimelineStore((s) => s.query.filters)
  const setQuery = useTimelineStore((s) => s.setQuery)
  const [draft, setDraft] = useState<TimelineFilters>(filters)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  // The store changed from outside (a link, the hash, Clear): show it.
  const [seen, setSeen] = useState(filters)
  if (seen !== filters) {
    setSeen(filters)
    setDraft(filters)
  }

  const commit = (next: TimelineFilters): void => {
    clearTimeout(timer.current)
    const q = useTimelineStore.getState().query
    setQuery({ ...q, filters: next })
  }
  const change = (field: FilterField, value: string, immediate = false): void => {
    const next = { ...draft, [field]: value }
    setDraft(next)
    clearTimeout(timer.current)
    if (immediate) commit(next)
    else timer.current = setTimeout(() => commit(next), DEBOUNCE_MS)
  }
  useEffect(() => () => clearTimeout(timer.current), [])

  const active = Object.keys(activeFilters(draft)).length
  return (
    <form
      className="tl-filters"
      role="search"
      aria-label="Filter events"
      onSubmit={(e) => {
        e.preventDefault()
        commit(draft)
        onLeave()
      }}
    >
      {FILTER_FIELDS.map((f) => (
        <label key={f} className={`tl-filter tl-filter-${f}${draft[f] ? ' set' : ''}`}>
          <span className="tl-filter-label">{FILTER_LABELS[f]}</span>
          {f === 'status' ? (
            <select
              className="input"
              value={draft.status ?? ''}
              onChange={(e) => change('status', e.target.value, true)}
              data-testid="timeline-filter-status"
            >
              <option value="">any</option>
              {EVENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          ) : (
            <span className="tl-filter-input">
              {f === 'text' && <Search size={13} aria-hidden />}
              <input
                ref={f === 'text' ? textRef : undefined}
                className={`input${f === 'text' ? '' : ' mono'}`}
                value={draft[f] ?? ''}
                placeholder={PLACEHOLDERS[f]}
                onChange={(e) => change(f, e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault()
                    commit(draft)
                    onLeave()
                    return
                  }
                  if (e.key !== 'Escape') return
                  e.stopPropagation()
                  if (draft[f]) change(f, '', true)
                  else onLeave()
                }}
                list={suggestions[f]?.length ? `tl-suggest-${f}` : undefined}
                spellCheck={false}
                autoComplete="off"
                data-testid={`timeline-filter-${f}`}
              />
              {suggestions[f]?.length ? (
                <datalist id={`tl-suggest-${f}`}>
                  {suggestions[f]!.map((v) => (
                    <option key={v} value={v} />
                  ))}
                </datalist>
              ) : null}
            </span>
          )}
        </label>
      ))}
      <button
        type="button"
        className="btn-icon tl-clear"
        onClick={() => commit({})}
        disabled={!active}
        aria-label="Clear all filters"
        title="Clear all filters"
        data-testid="timeline-filter-clear"
      >
        <X size={14} />
      </button>
    </form>
  )
}
