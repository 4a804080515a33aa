/** Small labelled chips: versions, flags, finding levels, keys. */
import type { HTMLAttributes, ReactNode } from 'react'

/** Visual tone of a chip. */
export type ChipTone = 'neutral' | 'accent' | 'ok' | 'warning' | 'error' | 'mono'

/** A compact pill. `title` carries the full text when the label is truncated. */
export function Chip({
  tone = 'neutral',
  children,
  className,
  ...rest
}: { tone?: ChipTone; children: ReactNode } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span className={`chip chip-${tone}${className ? ` ${className}` : ''}`} {...rest}>
      {children}
    </span>
  )
}
