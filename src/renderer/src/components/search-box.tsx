/** The search and filter box of a screen's bar: the magnifier, a text input and its clear button. */
import type { KeyboardEvent, Ref } from 'react'
import { Search, X } from 'lucide-react'

/** Props of `SearchBox`. */
export interface SearchBoxProps {
  value: string
  /** Called with the new text. */
  onChange: (text: string) => void
  placeholder: string
  /** The input's accessible name. */
  label: string
  /** Extra classes beside `.search` (its width). */
  className?: string
  testId?: string
  inputRef?: Ref<HTMLInputElement>
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void
  autoFocus?: boolean
  /** The clear button's name; the box has one, shown while it holds text, only when this is given. */
  clearLabel?: string
  /** What the clear button does (default: `onChange('')`). */
  onClear?: () => void
}

/** A `.search` box around one text input. */
export function SearchBox({
  value,
  onChange,
  placeholder,
  label,
  className,
  testId,
  inputRef,
  onKeyDown,
  autoFocus,
  clearLabel,
  onClear = () => onChange('')
}: SearchBoxProps) {
  return (
    <div className={className ? `search ${className}` : 'search'}>
      <Search size={14} aria-hidden />
      <input
        ref={inputRef}
        className="input"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        aria-label={label}
        autoFocus={autoFocus}
        data-testid={testId}
      />
      {clearLabel && value && (
        <button type="button" className="btn-icon" onClick={onClear} aria-label={clearLabel}>
          <X size={13} />
        </button>
      )}
    </div>
  )
}
