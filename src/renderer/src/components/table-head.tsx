/** A table's header row from a list of columns: one `<th scope="col">` a column. */

/** A column: its label, or its label and how it shows (numbers right-aligned, a label only for screen readers). */
export type Column = string | { label: string; num?: boolean; srOnly?: boolean }

/** The `<thead>` of a table with these columns, in order. */
export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => {
          const { label, num, srOnly } = typeof c === 'string' ? { label: c } : c
          return (
            <th key={label} scope="col" className={num ? 'num' : undefined}>
              {srOnly ? <span className="sr-only">{label}</span> : label}
            </th>
          )
        })}
      </tr>
    </thead>
  )
}
