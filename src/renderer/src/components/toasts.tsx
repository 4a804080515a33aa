/** Renders the toast queue in the bottom-right corner. */
import { CircleAlert, Info, X } from 'lucide-react'
import { useToastStore } from '../stores/toast-store'

/** The toast stack; mounted once in the shell. */
export function Toasts() {
  const toasts = useToastStore((s) => s.toasts)
  const dismiss = useToastStore((s) => s.dismiss)
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`} role={t.tone === 'error' ? 'alert' : 'status'}>
          {t.tone === 'error' ? <CircleAlert size={15} aria-hidden /> : <Info size={15} aria-hidden />}
          <span className="toast-message">{t.message}</span>
          <button type="button" className="btn-icon" onClick={() => dismiss(t.id)} aria-label="Dismiss">
            <X size={14} />
          </button>
        </div>
      ))}
    </div>
  )
}
