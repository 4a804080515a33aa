/** UI-only state: current screen, palette, dialogs, theme choice. Server data lives in react-query. */
import { create } from 'zustand'
import { firstScreen, PHONE_MEDIA, type ScreenId } from '../lib/screens'

/** The operator's theme choice; `system` follows the OS. */
export type ThemeChoice = 'system' | 'light' | 'dark'
/** Which project dialog is open, if any. */
export type ProjectDialog = 'add' | 'scan' | null

const THEME_KEY = 'muster.theme'

function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_KEY)
    return value === 'light' || value === 'dark' ? value : 'system'
  } catch {
    return 'system'
  }
}

/** The UI store's state and actions. */
export interface UiState {
  screen: ScreenId
  paletteOpen: boolean
  projectDialog: ProjectDialog
  /** Project card to scroll to and highlight once the overview renders it. */
  focusProject: string | null
  /** Text filter of the overview grid (kept while visiting other screens). */
  overviewFilter: string
  theme: ThemeChoice
  /** Navigates by writing the hash; the hashchange listener updates `screen`. */
  navigate: (screen: ScreenId) => void
  syncFromHash: () => void
  setPaletteOpen: (open: boolean) => void
  openProjectDialog: (dialog: ProjectDialog) => void
  /** Asks the overview to scroll to a card; clears the filter so the card is visible. */
  setFocusProject: (name: string | null) => void
  setOverviewFilter: (filter: string) => void
  setTheme: (theme: ThemeChoice) => void
}

/** The one UI store. */
export const useUiStore = create<UiState>((set) => ({
  screen: firstScreen(window.location.hash, window.matchMedia(PHONE_MEDIA).matches),
  paletteOpen: false,
  projectDialog: null,
  focusProject: null,
  overviewFilter: '',
  theme: storedTheme(),
  navigate: (screen) => {
    if (window.location.hash !== `#/${screen}`) window.location.hash = `#/${screen}`
    set({ screen })
  },
  syncFromHash: () => set({ screen: firstScreen(window.location.hash, window.matchMedia(PHONE_MEDIA).matches) }),
  setPaletteOpen: (paletteOpen) => set({ paletteOpen }),
  openProjectDialog: (projectDialog) => set({ projectDialog }),
  setFocusProject: (focusProject) => set(focusProject ? { focusProject, overviewFilter: '' } : { focusProject }),
  setOverviewFilter: (overviewFilter) => set({ overviewFilter }),
  setTheme: (theme) => {
    try {
      localStorage.setItem(THEME_KEY, theme)
    } catch {
      // Not persisted locally; the server-side setting still is.
    }
    set({ theme })
  }
}))
