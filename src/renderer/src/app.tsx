/** The app shell: sidebar, the current screen, palette, dialogs and toasts. */
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useNeeds } from './api/needs-queries'
import { useLiveEvents } from './api/use-live-events'
import { Sidebar } from './components/sidebar'
import { LoadingState } from './components/state-views'
import { Toasts } from './components/toasts'
import { useKeyboardShortcuts } from './hooks/use-keyboard-shortcuts'
import { useThemeEffect } from './hooks/use-theme'
import { FALLBACK_MS, openAfterNextPaint } from './lib/first-paint'
import { screenLabel, type ScreenId } from './lib/screens'
import { useUiStore, type UiState } from './stores/ui-store'

// Every screen loads on first visit, so the first paint needs only the shell and the screen it
// opens on (the phone's needs-you queue, the desktop's Overview): the markdown renderer, the
// virtualised timeline and the other screens stay out of the first chunk. The palette and the
// project dialog load the first time they open.
const loadOverview = () => import('./views/overview/overview-screen')
const loadNeeds = () => import('./views/needs/needs-screen')
const OverviewScreen = lazy(() => loadOverview().then((m) => ({ default: m.OverviewScreen })))
const NeedsScreen = lazy(() => loadNeeds().then((m) => ({ default: m.NeedsScreen })))
const SettingsScreen = lazy(() => import('./views/settings/settings-screen').then((m) => ({ default: m.SettingsScreen })))
const UpcomingScreen = lazy(() => import('./views/upcoming/upcoming-screen').then((m) => ({ default: m.UpcomingScreen })))
const CommandPalette = lazy(() => import('./components/command-palette').then((m) => ({ default: m.CommandPalette })))
const ProjectDialog = lazy(() => import('./components/project-dialog').then((m) => ({ default: m.ProjectDialog })))
const MuseArea = lazy(() => import('./views/directives/muse-area').then((m) => ({ default: m.MuseArea })))
const TimelineScreen = lazy(() => import('./views/timeline/timeline-screen').then((m) => ({ default: m.TimelineScreen })))
const PatchesScreen = lazy(() => import('./views/patches/patches-screen').then((m) => ({ default: m.PatchesScreen })))
const NotesScreen = lazy(() => import('./views/notes/notes-screen').then((m) => ({ default: m.NotesScreen })))
const ConnectScreen = lazy(() => import('./views/connect/connect-screen').then((m) => ({ default: m.ConnectScreen })))
const UsageScreen = lazy(() => import('./views/usage/usage-screen').then((m) => ({ default: m.UsageScreen })))
const ApprovalsScreen = lazy(() => import('./views/approvals/approvals-screen').then((m) => ({ default: m.ApprovalsScreen })))
// the first screen's chunk is asked for while the entry runs, beside React's first render
const opening = useUiStore.getState().screen
if (opening === 'overview') void loadOverview()
else if (opening === 'needs') void loadNeeds()

function Screen({ id }: { id: ScreenId }) {
  switch (id) {
    case 'overview':
      return <OverviewScreen />
    case 'needs':
      return <NeedsScreen />
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
    case 'usage':
      return <UsageScreen />
    case 'settings':
      return <SettingsScreen />
    case 'connect':
      return <ConnectScreen />
    default:
      return <UpcomingScreen id={id} />
  }
}

/** True from the first time `opened` holds: a lazily loaded overlay stays mounted once it was asked for. */
function useOpenedOnce(opened: (s: UiState) => boolean): boolean {
  const now = useUiStore(opened)
  const [once, setOnce] = useState(now)
  if (now && !once) setOnce(true)
  return once || now
}

/** Root component. */
export function App() {
  useThemeEffect()
  useKeyboardShortcuts()
  useLiveEvents()
  const screen = useUiStore((s) => s.screen)
  const needs = useNeeds().data?.count ?? 0
  const paletteOpened = useOpenedOnce((s) => s.paletteOpen)
  const dialogOpened = useOpenedOnce((s) => s.projectDialog !== null)
  const mainRef = useRef<HTMLElement>(null)

  useEffect(() => {
    mainRef.current?.scrollTo({ top: 0 })
  }, [screen])
  // the Overview and the needs-you queue open the first-paint gate when their rows are in; any other screen at once
  useEffect(() => {
    if (screen !== 'overview' && screen !== 'needs') openAfterNextPaint()
  }, [screen])
  useEffect(() => {
    const fallback = setTimeout(openAfterNextPaint, FALLBACK_MS)
    return () => clearTimeout(fallback)
  }, [])
  // The window title carries how many things need the operator (the needs-you queue), so a glance at the taskbar tells.
  useEffect(() => {
    const label = screenLabel(screen)
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
      <Suspense fallback={null}>
        {paletteOpened && <CommandPalette />}
        {dialogOpened && <ProjectDialog />}
      </Suspense>
      <Toasts />
    </div>
  )
}
