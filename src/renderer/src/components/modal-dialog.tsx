/** The app's modal: a native `<dialog>` opened and closed by a flag, with a titled header and a body. */
import { useEffect, useEffectEvent, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { X } from 'lucide-react'

/** Props of `ModalDialog`. */
export interface ModalDialogProps {
  /** Drives the dialog: shown as a modal while true; the content is rendered only then. */
  open: boolean
  /** The dialog was closed (Escape, the × button). */
  onClose: () => void
  /** Called as the dialog opens, after `showModal`. */
  onOpen?: (dialog: HTMLDialogElement) => void
  title: ReactNode
  /** The heading's id (the dialog is labelled by it). */
  titleId: string
  /** Classes beside `.dialog` and `.dialog-body`. */
  className?: string
  bodyClassName?: string
  testId?: string
  onKeyDown?: (e: KeyboardEvent<HTMLDialogElement>) => void
  children: ReactNode
}

/** `.dialog` with `.dialog-header` (title and ×) and `.dialog-body` around `children`. */
export function ModalDialog({
  open,
  onClose,
  onOpen,
  title,
  titleId,
  className,
  bodyClassName,
  testId,
  onKeyDown,
  children
}: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const opened = useEffectEvent((el: HTMLDialogElement) => onOpen?.(el))
  useEffect(() => {
    const el = ref.current
    if (!el) return
    if (open && !el.open) {
      el.showModal()
      opened(el)
    }
    if (!open && el.open) el.close()
  }, [open])
  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      onClose={onClose}
      onKeyDown={onKeyDown}
      aria-labelledby={titleId}
      data-testid={testId}
    >
      {open && (
        <>
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="btn-icon" onClick={onClose} aria-label="Close">
              <X size={16} />
            </button>
          </header>
          <div className={bodyClassName ? `dialog-body ${bodyClassName}` : 'dialog-body'}>{children}</div>
        </>
      )}
    </dialog>
  )
}
