/** UI state of the Approvals screen: the selected request, the reason being typed, the rule being proposed. */
import { create } from 'zustand'

interface ApprovalsUiState {
  /** The selected pending request (its event id). */
  selected: string | null
  /** The optional reason typed for the next decision. */
  reason: string
  /** The request whose "always allow" rule is being shown before saving. */
  proposing: string | null
  select: (id: string | null) => void
  setReason: (reason: string) => void
  setProposing: (id: string | null) => void
}

/** The Approvals screen's store. */
export const useApprovalsUi = create<ApprovalsUiState>((set, get) => ({
  selected: null,
  reason: '',
  proposing: null,
  select: (selected) => {
    if (selected !== get().selected) set({ selected, reason: '', proposing: null })
  },
  setReason: (reason) => set({ reason }),
  setProposing: (proposing) => set({ proposing })
}))

/** The screen's tabs; the hash `#/approvals?tab=history` picks one. */
export type ApprovalsTab = 'pending' | 'history' | 'rules'

/** The tab named by a location hash (pending by default). */
export function tabFromHash(hash: string): ApprovalsTab {
  const tab = /[?&]tab=(\w+)/.exec(hash)?.[1]
  return tab === 'history' || tab === 'rules' ? tab : 'pending'
}

/** The request an address names (`#/approvals?id=<correlation or event id>&hub=H`, a `muster://approval` link). */
export function requestFromHash(hash: string): { id: string; hub: string | null } | null {
  const q = hash.indexOf('?')
  if (!hash.startsWith('#/approvals') || q < 0) return null
  const params = new URLSearchParams(hash.slice(q + 1))
  const id = params.get('id')
  return id ? { id, hub: params.get('hub') || null } : null
}

/** The hash of a tab. */
export function tabHref(tab: ApprovalsTab): string {
  return tab === 'pending' ? '#/approvals' : `#/approvals?tab=${tab}`
}
