/** The app shell: sidebar, the current screen, palette, dialogs and toasts. */
import { lazy, Suspense, useEffect, useRef } from 'react'
import { useNeeds } from './api/needs-queries'
import { useLiveEvents } from './api/use-live-events'
import { CommandPalette } from './components/command-palette'
import { ProjectDialog } from './components/project-dialog'
import { Sidebar } from './components/sidebar'
import { LoadingState } from './components/state-views'
import { Toasts } from './components/toasts'
import { useKeyboardShortcuts } from './hooks/use-keyboard-shortcuts'
import { useThemeEffect } from './hooks/use-theme'
import { FALLBACK_MS, openAfterNextPaint } from './lib/first-paint'
import { SCREENS, type ScreenId } from './lib/screens'
import { useUiStore } from './stores/ui-store'
import { OverviewScreen } from './views/overview/overview-screen'
import { SettingsScreen } from './views/settings/settings-screen'
import { UpcomingScreen } from './views/upcoming/upcoming-screen'

// Screens beyond the overview load on first visit: the markdown renderer and the virtualised
// timeline stay out of the bundle the dashboard needs for its first paint.
const MuseArea = lazy(() => import('./views/directives/muse-area').then((m) => ({ default: m.MuseArea })))
const TimelineScreen = lazy(() => import('./views/timeline/timeline-screen').then((m) => ({ default: m.TimelineScreen })))
const PatchesScreen = lazy(() => import('./views/patches/patches-screen').then((m) => ({ default: m.PatchesScreen })))
const NotesScreen = lazy(() => import('./views/notes/notes-screen').then((m) => ({ default: m.NotesScreen })))
const ApprovalsScreen = lazy(() => import('./views/approvals/approvals-screen').then((m) => ({ default: m.ApprovalsScreen })))

function Screen({ id }: { id: ScreenId }) {
  switch (id) {
    case 'overview':
      return <OverviewScreen />
    case 'directives':
      return <MuseArea />
    case 'timeline':
      return <TimelineScreen />
    case 'patches':
      return <PatchesScreen />
    case 'notes':
      return <NotesScreen />
    case 'approvals':
      return <ApprovalsScreen />
    case 'settings':
      return <SettingsScreen />
    default:
      return <UpcomingScreen id={id} />
  }
}

/** Root component. */
export function App() {
  useThemeEffect()
  useKeyboardShortcuts()
  useLiveEvents()
  const screen = useUiStore((s) => s.screen)
  const needs = useNeeds().data?.count ?? 0
  const mainRef = useRef<HTMLElement>(null)

  useEffect(() => {
    mainRef.current?.scrollTo({ top: 0 })
  }, [screen])
  // the Overview opens the first-paint gate when its cards are in; any other screen at once
  useEffect(() => {
    if (screen !== 'overview') openAfterNextPaint()
  }, [screen])
  useEffect(() => {
    const fallback = setTimeout(openAfterNextPaint, FALLBACK_MS)
    return () => clearTimeout(fallback)
  }, [])
  // The window title carries how many things need the operator (the needs-you queue), so a glance at the taskbar tells.
  useEffect(() => {
    const label = SCREENS.find((s) => s.id === screen)?.label ?? 'Muster'
    document.title = `${needs ? `(${needs}) ` : ''}${label} · Muster`
  }, [screen, needs])

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Sidebar />
      <main id="main" ref={mainRef} className="main" tabIndex={-1}>
        <Suspense fallback={<LoadingState label="Loading…" />}>
          <Screen id={screen} />
        </Suspense>
      </main>
      <CommandPalette />
      <ProjectDialog />
      <Toasts />
    </div>
  )
}
