/** Unified / split switch: a radio group, so arrows and Tab work as for any radio buttons. */
import type { ViewType } from 'react-diff-view'

/** Props: the current view and its setter. */
export function ViewToggle({ value, onChange }: { value: ViewType; onChange: (v: ViewType) => void }) {
  return (
    <fieldset className="dv-toggle">
      <legend className="sr-only">Diff layout</legend>
      {(['unified', 'split'] as const).map((v) => (
        <label key={v} className={value === v ? 'dv-toggle-on' : undefined}>
          <input type="radio" name="dv-layout" value={v} checked={value === v} onChange={() => onChange(v)} />
          {v === 'unified' ? 'Unified' : 'Split'}
        </label>
      ))}
    </fieldset>
  )
}
