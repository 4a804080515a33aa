/** UI state of the Directives screen, kept while the operator visits a role file and comes back. */
import { create } from 'zustand'
import type { DirectiveFilters, StateFilter } from './directive-model'

interface DirectivesUiState extends DirectiveFilters {
  state: StateFilter
  /** Key of the selected directive (`Directive.key`), or null. */
  selected: string | null
  sendOpen: boolean
  /** Key of the directive whose pickup waits for confirmation, or null. */
  confirming: string | null
  setState: (state: StateFilter) => void
  setFilter: (patch: Partial<DirectiveFilters>) => void
  clearFilters: () => void
  select: (key: string | null) => void
  setSendOpen: (open: boolean) => void
  setConfirming: (key: string | null) => void
}

/** The Directives screen's filters, selection and dialog flag. */
export const useDirectivesUi = create<DirectivesUiState>((set) => ({
  state: 'all',
  project: '',
  role: '',
  text: '',
  selected: null,
  sendOpen: false,
  confirming: null,
  setState: (state) => set({ state }),
  setFilter: (patch) => set(patch),
  clearFilters: () => set({ state: 'all', project: '', role: '', text: '' }),
  select: (selected) => set((s) => (s.selected === selected ? s : { selected, confirming: null })),
  setSendOpen: (sendOpen) => set({ sendOpen }),
  setConfirming: (confirming) => set({ confirming })
}))
