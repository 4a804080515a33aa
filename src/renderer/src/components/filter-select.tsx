/** A `<select>` over a list of names, optionally led by an "all" choice with the empty value. */

/** Props of `FilterSelect`. */
export interface FilterSelectProps {
  value: string
  onChange: (value: string) => void
  options: readonly string[]
  /** Label of the leading empty-value option ("All projects"); omitted when absent. */
  allLabel?: string
  id?: string
  ariaLabel?: string
  testId?: string
}

/** One select for project, role and similar filters and pickers. */
export function FilterSelect({ value, onChange, options, allLabel, id, ariaLabel, testId }: FilterSelectProps) {
  return (
    <select
      id={id}
      className="input select"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-label={ariaLabel}
      data-testid={testId}
    >
      {allLabel !== undefined && <option value="">{allLabel}</option>}
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
  )
}

/** The project filter of a list screen: "All projects" or one project by name. */
export function ProjectFilter({ value, onChange, options, testId }: Pick<FilterSelectProps, 'value' | 'onChange' | 'options' | 'testId'>) {
  return <FilterSelect value={value} onChange={onChange} options={options} allLabel="All projects" ariaLabel="Project" testId={testId} />
}
