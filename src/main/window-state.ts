/**
 * Remembers the main window's bounds and maximised state in a JSON file in userData. Reading is
 * tolerant (a missing or corrupt file gives the defaults), writing is atomic (tmp + rename), and
 * restored bounds are clamped onto a display that still exists.
 */
import { readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { makeDirSync } from '../core/make-dir'

/** A rectangle in screen coordinates (Electron's `Rectangle`). */
export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

/** What is remembered. `x`/`y` are absent until the window has been placed once. */
export interface WindowState {
  x?: number
  y?: number
  width: number
  height: number
  isMaximized: boolean
}

/** A display as far as clamping cares (Electron's `Display`). */
export interface DisplayLike {
  workArea: Rect
}

/** The file name inside userData. */
export const WINDOW_STATE_FILE = 'window-state.json'

/** Size of a first start. */
export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 820, isMaximized: false }

/** How much of the window must stay on a display to count as visible (a grabbable title bar). */
const MIN_VISIBLE = 80
/** Sizes beyond this are nonsense from a corrupt file. */
const MAX_DIMENSION = 20_000

/** Parses the file's text; null when it is not a usable state. */
export function parseWindowState(text: string): WindowState | null {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof data !== 'object' || data === null) return null
  const d = data as Record<string, unknown>
  if (!isDimension(d.width) || !isDimension(d.height)) return null
  const state: WindowState = { width: Math.round(d.width), height: Math.round(d.height), isMaximized: d.isMaximized === true }
  if (isCoordinate(d.x) && isCoordinate(d.y)) {
    state.x = Math.round(d.x)
    state.y = Math.round(d.y)
  }
  return state
}

/** Reads the state file; defaults when missing, unreadable or corrupt. */
export function readWindowState(file: string): WindowState {
  try {
    return parseWindowState(readFileSync(file, 'utf8')) ?? { ...DEFAULT_WINDOW_STATE }
  } catch {
    return { ...DEFAULT_WINDOW_STATE }
  }
}

/** Writes the state file atomically (tmp file in the same folder, then rename). */
export function writeWindowState(file: string, state: WindowState): void {
  makeDirSync(dirname(file))
  const tmp = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, 'utf8')
    renameSync(tmp, file)
  } catch (err) {
    rmSync(tmp, { force: true })
    throw err
  }
}

/**
 * Fits a remembered state onto the current displays: size capped to the largest work area, and
 * a window no longer visible enough (display unplugged, resolution changed) centred on the first
 * display. With no displays the state is returned as is.
 */
export function clampToDisplays(state: WindowState, displays: readonly DisplayLike[]): WindowState {
  const primary = displays[0]
  if (!primary) return { ...state }
  const maxW = Math.max(...displays.map((d) => d.workArea.width))
  const maxH = Math.max(...displays.map((d) => d.workArea.height))
  const width = Math.min(state.width, maxW)
  const height = Math.min(state.height, maxH)
  if (state.x !== undefined && state.y !== undefined) {
    const rect = { x: state.x, y: state.y, width, height }
    const home = displays.find((d) => isVisibleOn(rect, d.workArea))
    if (home) {
      // Keep it where it was, but pull it fully inside that display when it pokes out.
      const wa = home.workArea
      const w = Math.min(width, wa.width)
      const h = Math.min(height, wa.height)
      const x = Math.min(Math.max(rect.x, wa.x), wa.x + wa.width - w)
      const y = Math.min(Math.max(rect.y, wa.y), wa.y + wa.height - h)
      return { ...state, x, y, width: w, height: h }
    }
  }
  const wa = primary.workArea
  const w = Math.min(width, wa.width)
  const h = Math.min(height, wa.height)
  return {
    ...state,
    width: w,
    height: h,
    x: wa.x + Math.round((wa.width - w) / 2),
    y: wa.y + Math.round((wa.height - h) / 2)
  }
}

/** True when enough of `rect` lies on `area` to grab it. */
function isVisibleOn(rect: Rect, area: Rect): boolean {
  const overlapW = Math.min(rect.x + rect.width, area.x + area.width) - Math.max(rect.x, area.x)
  const overlapH = Math.min(rect.y + rect.height, area.y + area.height) - Math.max(rect.y, area.y)
  return overlapW >= Math.min(MIN_VISIBLE, rect.width) && overlapH >= Math.min(MIN_VISIBLE, rect.height)
}

/** The window operations `trackWindowState` needs (a `BrowserWindow` fits). */
export interface TrackableWindow {
  getNormalBounds(): Rect
  isMaximized(): boolean
  isFullScreen(): boolean
  isDestroyed(): boolean
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown
}

/** Options for `trackWindowState`. */
export interface TrackOptions {
  save: (state: WindowState) => void
  /** Quiet time after the last move/resize before saving (ms). */
  debounceMs?: number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
}

/** The state of a window right now (normal bounds even when maximised or full screen). */
export function captureWindowState(win: TrackableWindow): WindowState {
  const b = win.getNormalBounds()
  return { x: b.x, y: b.y, width: b.width, height: b.height, isMaximized: win.isMaximized() || win.isFullScreen() }
}

/** Saves the window's state after moves and resizes settle, and once more on close. */
export function trackWindowState(win: TrackableWindow, opts: TrackOptions): void {
  const debounceMs = opts.debounceMs ?? 500
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer = opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>))
  let timer: unknown = null
  const saveNow = (): void => {
    if (timer !== null) clearTimer(timer)
    timer = null
    if (win.isDestroyed()) return
    try {
      opts.save(captureWindowState(win))
    } catch (err) {
      console.warn('[muster] could not save the window state', err)
    }
  }
  const schedule = (): void => {
    if (timer !== null) clearTimer(timer)
    timer = setTimer(saveNow, debounceMs)
  }
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) win.on(event, schedule)
  win.on('close', saveNow)
}

function isDimension(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 100 && v <= MAX_DIMENSION
}

function isCoordinate(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 100_000
}
