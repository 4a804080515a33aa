/** Short-lived notices for actions started away from their screen (palette, dialogs). */
import { create } from 'zustand'

/** One notice. */
export interface Toast {
  id: number
  tone: 'info' | 'error'
  message: string
}

interface ToastState {
  toasts: Toast[]
  push: (tone: Toast['tone'], message: string) => void
  dismiss: (id: number) => void
}

/** Info notices disappear after this long; errors stay until dismissed. */
const INFO_TTL_MS = 5000
let nextId = 1

/** The toast queue. */
export const useToastStore = create<ToastState>((set, get) => ({
  toasts: [],
  push: (tone, message) => {
    const id = nextId++
    set({ toasts: [...get().toasts.slice(-3), { id, tone, message }] })
    if (tone === 'info') setTimeout(() => get().dismiss(id), INFO_TTL_MS)
  },
  dismiss: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) })
}))
