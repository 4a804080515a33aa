/**
 * Text an agent wrote, shown so nothing in it hides: every control, escape, bidi and zero-width
 * character appears as its escape (`\u202e`) in a marked box (shared `visibleParts`), so
 * `echo safe #‮ ; rm -rf ~` cannot read as something else where the operator decides.
 */
import { hasHidden, visibleParts } from '../../../shared/visible-text'

/** Characters shown of one line of agent text (a row, a title); the rest is a marked "… N more characters". */
export const MAX_LINE_SHOWN = 2_000
/** Characters shown of a multi-line block of agent text (a body); a hub body is at most 256 KiB. */
export const MAX_BLOCK_SHOWN = 256 * 1024

/**
 * `text` with its hidden characters marked; `multiline` keeps line breaks; past `max`
 * characters (a 10 MB line) the rest is one marked note, so no screen renders it whole.
 */
export function Visible({
  text,
  multiline = false,
  keepTabs = false,
  max
}: {
  text: string
  multiline?: boolean
  /** Tabs as they are (a body's code); a command's tab stays marked. */
  keepTabs?: boolean
  max?: number
}) {
  const parts = visibleParts(text, { multiline, keepTabs, max: max ?? (multiline ? MAX_BLOCK_SHOWN : MAX_LINE_SHOWN) })
  if (parts.length === 1 && !parts[0]!.hidden && !parts[0]!.cut) return <>{parts[0]!.text}</>
  return (
    <>
      {parts.map((p, i) =>
        p.cut ? (
          <mark key={i} className="hidden-char text-cut" title="the text is longer; the rest is not shown" data-testid="text-cut">
            {p.text}
          </mark>
        ) : p.hidden ? (
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
