/** The filter bar: state (with counts), project, role and free text. */
import type { RefObject } from 'react'
import { DIRECTIVE_STATES } from '../../../../shared/directive-query'
import type { StateFilter } from './directive-model'
import { useDirectivesUi } from './directives-store'
import { FilterSelect, ProjectFilter } from '../../components/filter-select'
import { SearchBox } from '../../components/search-box'

const LABELS: Record<StateFilter, string> = {
  all: 'All',
  pending: '🟡 Pending',
  received: 'Received',
  delivered: '✅ Delivered',
  skipped: '🚫 Skipped',
  frozen: '🔒 Frozen',
  active: '🟢 Active',
  untracked: 'Untracked'
}

/** States offered as a filter only when some directive has them. */
const RARE = new Set<StateFilter>(['skipped', 'frozen', 'active', 'untracked'])

/** Filters of the directive list; `counts` are per state after the other filters. */
export function DirectiveFilterBar({
  counts,
  projects,
  roles,
  searchRef
}: {
  counts: Record<StateFilter, number>
  projects: readonly string[]
  roles: readonly string[]
  searchRef: RefObject<HTMLInputElement | null>
}) {
  const ui = useDirectivesUi()
  const options: StateFilter[] = ['all', ...DIRECTIVE_STATES.filter((s) => !RARE.has(s) || counts[s] > 0)]
  const filtered = ui.state !== 'all' || ui.project || ui.role || ui.text
  return (
    <div className="dir-filters" role="toolbar" aria-label="Directive filters">
      <div className="segmented" role="radiogroup" aria-label="State" data-testid="directive-state-filter">
        {options.map((s) => (
          <label key={s} className={`segment${ui.state === s ? ' active' : ''}`} data-testid={`state-filter-${s}`}>
            <input type="radio" name="directive-state" value={s} checked={ui.state === s} onChange={() => ui.setState(s)} />
            <span>{LABELS[s]}</span>
            <span
              className={`segment-count${s === 'pending' && counts.pending ? ' segment-count-warn' : ''}`}
              data-testid={`state-count-${s}`}
            >
              {counts[s]}
            </span>
          </label>
        ))}
      </div>
      <ProjectFilter
        value={ui.project}
        onChange={(project) => ui.setFilter({ project })}
        options={projects}
        testId="directive-project-filter"
      />
      <FilterSelect
        value={ui.role}
        onChange={(role) => ui.setFilter({ role })}
        options={roles}
        allLabel="All roles"
        ariaLabel="Role"
        testId="directive-role-filter"
      />
      <SearchBox
        className="dir-search"
        inputRef={searchRef}
        value={ui.text}
        onChange={(text) => ui.setFilter({ text })}
        onKeyDown={(e) => {
          if (e.key === 'Escape') e.currentTarget.blur()
        }}
        placeholder="Filter id, title, body, file…  ( / )"
        label="Filter directives"
        testId="directive-text-filter"
        clearLabel="Clear text filter"
      />
      {filtered && (
        <button type="button" className="link-btn dir-clear" onClick={ui.clearFilters}>
          Clear filters
        </button>
      )}
    </div>
  )
}
