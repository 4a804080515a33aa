/** A table's header row from a list of columns: one `<th scope="col">` a column. */

/**
 * A column: its label, or its label and how it shows (numbers right-aligned, a label only for
 * screen readers, a class of the table's own for the header cell).
 */
export type Column = string | { label: string; num?: boolean; srOnly?: boolean; className?: string }

/** The `<thead>` of a table with these columns, in order. */
export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => {
          const { label, num, srOnly, className } = typeof c === 'string' ? { label: c } : c
          const classes = [num ? 'num' : '', className ?? ''].filter(Boolean).join(' ')
          return (
            <th key={label} scope="col" className={classes || undefined}>
              {srOnly ? <span className="sr-only">{label}</span> : label}
            </th>
          )
        })}
      </tr>
    </thead>
  )
}
