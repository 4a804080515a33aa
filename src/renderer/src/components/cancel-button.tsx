/** The plain button that closes a form, a dialog or a confirmation without doing anything. */

/** A `.btn` that calls `onClick`; says "Cancel" unless `children` says otherwise ("Close"). */
export function CancelButton({ onClick, children = 'Cancel' }: { onClick: () => void; children?: string }) {
  return (
    <button type="button" className="btn" onClick={onClick}>
      {children}
    </button>
  )
}
