/**
 * Text an agent wrote, shown so nothing in it hides: every control, escape, bidi and zero-width
 * character appears as its escape (`\u202e`) in a marked box (shared `visibleParts`), so
 * `echo safe #‮ ; rm -rf ~` cannot read as something else where the operator decides.
 */
import { hasHidden, visibleParts } from '../../../shared/visible-text'

/** `text` with its hidden characters marked; `multiline` keeps line breaks. */
export function Visible({ text, multiline = false }: { text: string; multiline?: boolean }) {
  const parts = visibleParts(text, { multiline })
  if (parts.length === 1 && !parts[0]!.hidden) return <>{text}</>
  return (
    <>
      {parts.map((p, i) =>
        p.hidden ? (
          <mark key={i} className="hidden-char" title="a hidden character, shown escaped" data-testid="hidden-char">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        )
      )}
    </>
  )
}

/** A warning when any of `texts` holds hidden characters (shown above what the operator decides on). */
export function HiddenTextWarning({ texts }: { texts: readonly string[] }) {
  if (!texts.some((t) => hasHidden(t, { multiline: true }))) return null
  return (
    <p className="hidden-warning" role="alert" data-testid="hidden-text-warning">
      This request holds hidden characters (terminal escapes, bidi or zero-width characters); they are shown marked, as escapes. Read it as
      marked, not as it might display elsewhere.
    </p>
  )
}
