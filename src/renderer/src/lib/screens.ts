/** The screens of the app shell, in sidebar order. */
import { Activity, ChartColumn, FileDiff, LayoutGrid, Send, Settings, ShieldCheck, StickyNote, type LucideIcon } from 'lucide-react'

/** Identifier of a screen; also its hash route (`#/overview`). */
export type ScreenId =
  'overview' | 'directives' | 'timeline' | 'patches' | 'approvals' | 'notes' | 'usage' | 'settings' | 'needs' | 'connect'

/** A sidebar entry: label, icon and keyboard shortcuts (`g <letter>` and a digit). */
export interface ScreenDef {
  id: ScreenId
  label: string
  icon: LucideIcon
  /** Second key of the `g <key>` chord. */
  chord: string
  /** Digit shortcut, 1-based. */
  digit: number
  /** False while the screen only describes what it will show. */
  ready: boolean
}

/** Every screen, in sidebar order. */
export const SCREENS: readonly ScreenDef[] = [
  { id: 'overview', label: 'Overview', icon: LayoutGrid, chord: 'o', digit: 1, ready: true },
  { id: 'directives', label: 'Directives', icon: Send, chord: 'd', digit: 2, ready: true },
  { id: 'timeline', label: 'Timeline', icon: Activity, chord: 't', digit: 3, ready: true },
  { id: 'patches', label: 'Patches', icon: FileDiff, chord: 'p', digit: 4, ready: true },
  { id: 'approvals', label: 'Approvals', icon: ShieldCheck, chord: 'a', digit: 5, ready: true },
  { id: 'notes', label: 'Notes', icon: StickyNote, chord: 'n', digit: 6, ready: true },
  { id: 'usage', label: 'Usage', icon: ChartColumn, chord: 'u', digit: 7, ready: true },
  { id: 'settings', label: 'Settings', icon: Settings, chord: 's', digit: 8, ready: true }
]

/** Screens without a sidebar entry: their title and the entry they highlight. */
const OFF_SIDEBAR: Readonly<Partial<Record<ScreenId, { label: string; under: ScreenId }>>> = {
  needs: { label: 'Needs you', under: 'overview' },
  connect: { label: 'Connect agents', under: 'settings' }
}

/** True when `value` names a screen. */
export function isScreenId(value: string): value is ScreenId {
  return SCREENS.some((s) => s.id === value) || Object.prototype.hasOwnProperty.call(OFF_SIDEBAR, value)
}

/** A screen's title (the window title's first word). */
export function screenLabel(id: ScreenId): string {
  return SCREENS.find((s) => s.id === id)?.label ?? OFF_SIDEBAR[id]?.label ?? 'Muster'
}

/** The sidebar entry shown as current while `id` is on screen. */
export function sidebarEntry(id: ScreenId): ScreenId {
  return OFF_SIDEBAR[id]?.under ?? id
}

/** The phone's layout (responsive.css draws the same line). */
export const PHONE_MEDIA = '(max-width: 640px)'

/** The screen an address opens; with none, the phone opens on the needs-you queue and a larger screen on the Overview. */
export function firstScreen(hash: string, phone: boolean): ScreenId {
  return hash.replace(/^#\/?/, '') ? screenFromHash(hash) : phone ? 'needs' : 'overview'
}

/** Routes that are not sidebar entries, and the screen whose sidebar entry they highlight. */
const SUB_ROUTES: Readonly<Record<string, ScreenId>> = { role: 'directives', memory: 'directives', chains: 'directives' }

/** Reads the screen from a location hash such as `#/timeline`; overview when unknown. */
export function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? ''
  return isScreenId(id) ? id : (SUB_ROUTES[id] ?? 'overview')
}
