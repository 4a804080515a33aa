/** A small icon button that copies a text (a file path, an id) to the clipboard. */
import { useEffect, useState } from 'react'
import { Check, Copy } from 'lucide-react'
import { useToastStore } from '../stores/toast-store'

/** How long the check mark stays after a copy. */
const COPIED_MS = 1200

/** Copies `text`; `label` names what is copied for screen readers and the tooltip. */
export function CopyButton({ text, label = 'Copy', testId }: { text: string; label?: string; testId?: string }) {
  const [copied, setCopied] = useState(false)
  const toast = useToastStore((s) => s.push)
  useEffect(() => {
    if (!copied) return
    const t = setTimeout(() => setCopied(false), COPIED_MS)
    return () => clearTimeout(t)
  }, [copied])
  const copy = (): void => {
    if (!navigator.clipboard) {
      toast('error', 'The clipboard is not available in this window.')
      return
    }
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      () => toast('error', 'Could not copy to the clipboard.')
    )
  }
  return (
    <button
      type="button"
      className="btn-icon btn-icon-sm"
      onClick={copy}
      aria-label={label}
      title={copied ? 'Copied' : label}
      data-testid={testId}
    >
      {copied ? <Check size={13} className="text-ok" /> : <Copy size={13} />}
    </button>
  )
}
