/**
 * The labelled fields every form is built from: the `.field` block (label above, control below,
 * "(optional)" after the label when it is) around a text input, a text area or any control.
 */
import { useId, type ChangeEvent, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react'

type FieldFrame = {
  label: ReactNode
  /** Marks the label "(optional)". */
  optional?: boolean
  /** A muted aside after the label, in brackets (instead of "optional"). */
  aside?: string
  /** Extra classes on the `.field` block (`field-grow`, `field-name`, …). */
  fieldClass?: string
  /** The control's test id. */
  testId?: string
}

/** A `.field` block: the label, for the control `children` renders with the id it is given. */
export function Field({
  label,
  optional,
  aside = optional ? 'optional' : undefined,
  fieldClass,
  children
}: Omit<FieldFrame, 'testId'> & { children: (id: string) => ReactNode }) {
  const id = useId()
  return (
    <div className={fieldClass ? `field ${fieldClass}` : 'field'}>
      <label htmlFor={id}>
        {label}
        {aside && (
          <>
            {' '}
            <span className="muted">({aside})</span>
          </>
        )}
      </label>
      {children(id)}
    </div>
  )
}

type TextFieldProps = FieldFrame & {
  value: string
  /** Called with the new text. */
  onChange: (value: string) => void
  /** Monospace, for ids, paths, branches and commands. */
  mono?: boolean
  /** Literal text (a path, URL, id or token): no spell-check, no autocomplete. */
  literal?: boolean
  /** Values offered as the user types (a datalist). */
  suggestions?: readonly string[]
  /** A text area of this many rows instead of a one-line input. */
  rows?: number
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'className' | 'id'>

/** A `.field` with a one-line text input, or a text area when `rows` is given. */
export function TextField({
  label,
  optional,
  aside,
  fieldClass,
  testId,
  mono,
  literal,
  suggestions,
  rows,
  value,
  onChange,
  ...rest
}: TextFieldProps) {
  const kind = rows ? 'input textarea' : 'input'
  const control = (id: string) => ({
    ...(literal ? { spellCheck: false, autoComplete: 'off' } : {}),
    ...rest,
    ...(suggestions ? { list: `${id}-suggestions` } : {}),
    id,
    className: mono ? `${kind} mono` : kind,
    value,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(e.target.value),
    'data-testid': testId
  })
  return (
    <Field label={label} optional={optional} aside={aside} fieldClass={fieldClass}>
      {(id) => (
        <>
          {rows ? <textarea {...(control(id) as TextareaHTMLAttributes<HTMLTextAreaElement>)} rows={rows} /> : <input {...control(id)} />}
          {suggestions && (
            <datalist id={`${id}-suggestions`}>
              {suggestions.map((v) => (
                <option key={v} value={v} />
              ))}
            </datalist>
          )}
        </>
      )}
    </Field>
  )
}

/** A required folder path (the first thing its form asks for), in the row's growing column. */
export function FolderField(props: Pick<TextFieldProps, 'label' | 'testId' | 'placeholder' | 'value' | 'onChange' | 'autoFocus'>) {
  return <TextField {...props} fieldClass="field-grow" mono literal required />
}
