/**
 * The options of Muster's main window: locked-down web preferences, a sensible minimum size, and
 * hidden until the first paint (shown on `ready-to-show`) so there is no white flash.
 */
import type { BrowserWindowConstructorOptions } from 'electron'

/** Where and how big the window opens (from `window-state.ts`). */
export interface WindowBounds {
  x?: number
  y?: number
  width: number
  height: number
}

/** Inputs for `createWindowOptions`. */
export interface WindowOptionsInput {
  /** Absolute path of the built preload (`out/preload/index.cjs`). */
  preloadPath: string
  bounds: WindowBounds
  /** Development build: enables devtools. */
  isDev: boolean
  /** Dark OS theme (`nativeTheme.shouldUseDarkColors`): picks the background painted before the app. */
  dark?: boolean
  /** Window icon (Linux; macOS and Windows take the app's icon). */
  icon?: string
}

/** Smallest usable window: the fleet overview needs two card columns and the side bar. */
export const MIN_WIDTH = 880
export const MIN_HEIGHT = 560

/** Background painted before the renderer draws; matches the app's dark and light surfaces. */
export const BACKGROUND = { dark: '#111318', light: '#f7f7f8' } as const

/** Builds the main window's constructor options. */
export function createWindowOptions({
  preloadPath,
  bounds,
  isDev,
  dark = false,
  icon
}: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    width: Math.max(bounds.width, MIN_WIDTH),
    height: Math.max(bounds.height, MIN_HEIGHT),
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    show: false,
    title: 'Muster',
    backgroundColor: dark ? BACKGROUND.dark : BACKGROUND.light,
    autoHideMenuBar: true,
    ...(icon ? { icon } : {}),
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: isDev
    }
  }
}
