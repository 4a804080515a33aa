/**
 * The Electron main process: the only file (with the preload) that imports Electron values.
 * It wires the tested pieces together: the `app://` scheme, single instance and `muster://`
 * links, Muster home, the Electron-ABI SQLite addon, the service, the IPC binding, security,
 * the window and its remembered bounds, the badge, tray and notifications.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  nativeTheme,
  Notification,
  protocol,
  screen,
  session,
  safeStorage,
  shell,
  Tray
} from 'electron'
import { keychainProtector } from './key-protection'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createService } from '../core/root'
import type { MusterService } from '../core/service-types'
import { setSqliteNativeBinding } from '../core/sqlite'
import { createAppProtocolHandler, PRIVILEGED_SCHEMES } from './app-protocol'
import { APP_SCHEME, isAppUrl, resolveRendererTarget } from './app-url'
import { deepLinkHash } from '../shared/deep-link'
import { resolveHome } from './home'
import { bindService, createTrustedSenderCheck, forwardEvents } from './ipc-binding'
import { notifyAttention } from './inbox-notifier'
import { closeOnQuit } from './lifecycle'
import { resolveNativeBinding } from './native-binding'
import { createNeedsYouPresenter, feedNeedsYou, summaryFromNeeds, type NeedsYouSummary } from './needs-you'
import { noticeHash } from './notice-target'
import { installSecurity } from './security'
import { bringToFront, claimSingleInstance, protocolClientArgs } from './single-instance'
import { createWindowOptions } from './window-options'
import { clampToDisplays, readWindowState, trackWindowState, WINDOW_STATE_FILE, writeWindowState } from './window-state'

const mainDir = dirname(fileURLToPath(import.meta.url))
const PRELOAD_PATH = join(mainDir, '../preload/index.cjs')
const RENDERER_ROOT = join(mainDir, '../renderer')

/** A file of `resources/` (beside the app when packaged, `extraResources`; in the repository otherwise). */
function resourceFile(...parts: string[]): string {
  return app.isPackaged ? join(process.resourcesPath, ...parts) : join(app.getAppPath(), 'resources', ...parts)
}

// Must run before `ready`: every renderer sandboxed, and app:// a secure standard scheme.
app.enableSandbox()
protocol.registerSchemesAsPrivileged(PRIVILEGED_SCHEMES)

let mainWindow: BrowserWindow | null = null

const instance = claimSingleInstance({
  app,
  argv: process.argv,
  focus: () => bringToFront(mainWindow),
  open: (link) => openHash(deepLinkHash(link))
})
if (instance) start()

/** Brings the window forward on a hash route of the app; false while there is no window yet. */
function openHash(hash: string): boolean {
  const win = mainWindow
  if (!win || win.isDestroyed()) return false
  bringToFront(win)
  if (!hash.startsWith('#/')) return true // only ever the app's own routes
  const go = (): void => {
    // passed as a JSON string literal: no quote in it can end the string
    void win.webContents.executeJavaScript(`location.hash = ${JSON.stringify(hash)}`).catch(() => undefined)
  }
  if (win.webContents.isLoading()) win.webContents.once('did-finish-load', go)
  else go()
  return true
}

function start(): void {
  const target = resolveRendererTarget({
    isPackaged: app.isPackaged,
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    rendererRoot: RENDERER_ROOT
  })
  const windows = new Set<BrowserWindow>()
  const ourWebContents = new Set<number>()
  let service: MusterService | null = null
  let tray: Tray | null = null

  function createMainWindow(): BrowserWindow {
    const stateFile = join(app.getPath('userData'), WINDOW_STATE_FILE)
    const primary = screen.getPrimaryDisplay()
    const displays = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)]
    const state = clampToDisplays(readWindowState(stateFile), displays)
    const win = new BrowserWindow(
      createWindowOptions({
        preloadPath: PRELOAD_PATH,
        bounds: state,
        isDev: target.kind === 'dev',
        dark: nativeTheme.shouldUseDarkColors,
        icon: process.platform === 'linux' ? resourceFile('icon.png') : undefined
      })
    )
    const id = win.webContents.id
    windows.add(win)
    ourWebContents.add(id)
    mainWindow = win
    win.on('closed', () => {
      windows.delete(win)
      ourWebContents.delete(id)
      if (mainWindow === win) mainWindow = [...windows][0] ?? null
    })
    trackWindowState(win, { save: (s) => writeWindowState(stateFile, s) })
    win.once('ready-to-show', () => {
      if (state.isMaximized) win.maximize()
      win.show()
    })
    win.webContents.on('render-process-gone', (_e, details) => console.error(`[muster] renderer gone: ${details.reason}`))
    win.loadURL(target.url).catch((err: unknown) => console.error('[muster] could not load the app page', err))
    return win
  }

  /** The needs-you summary on the badge, the taskbar overlay and the tray. */
  function needsYouPresenter(): (summary: NeedsYouSummary) => void {
    try {
      tray = new Tray(nativeImage.createFromPath(resourceFile('tray', process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png')))
    } catch (err) {
      console.warn('[muster] no tray icon on this desktop', err)
    }
    tray?.on('click', () => bringToFront(mainWindow))
    const overlay = nativeImage.createFromPath(resourceFile('tray', 'overlay.png'))
    return createNeedsYouPresenter({
      setBadgeCount: (count) => app.setBadgeCount(count),
      setOverlay:
        process.platform === 'win32'
          ? (count) => mainWindow?.setOverlayIcon(count ? overlay : null, count ? `${count} waiting for you` : '')
          : undefined,
      tray,
      setMenu: (oldestLabel, oldest) => {
        const link = oldest?.link ?? null
        tray?.setContextMenu(
          Menu.buildFromTemplate([
            ...(oldestLabel
              ? [{ label: oldestLabel, enabled: link !== null, click: () => link && openHash(link) }, { type: 'separator' as const }]
              : [{ label: 'Nothing needs you', enabled: false }, { type: 'separator' as const }]),
            { label: 'Open Muster', click: () => bringToFront(mainWindow) },
            { label: 'Quit Muster', role: 'quit' as const }
          ])
        )
      }
    })
  }

  app
    .whenReady()
    .then(async () => {
      installSecurity({ app, session: session.defaultSession, shell, target })
      protocol.handle(APP_SCHEME, createAppProtocolHandler({ root: RENDERER_ROOT }))
      if (
        !app.setAsDefaultProtocolClient(
          ...protocolClientArgs({ defaultApp: process.defaultApp === true, execPath: process.execPath, argv: process.argv })
        )
      ) {
        console.warn('[muster] could not register as the muster:// handler')
      }

      const home = resolveHome({ argv: process.argv, env: process.env, userData: app.getPath('userData') })
      setSqliteNativeBinding(
        resolveNativeBinding({
          appRoot: app.getAppPath(),
          electronVersion: process.versions.electron ?? '',
          env: process.env,
          exists: existsSync
        })
      )
      const svc = await createService({
        home,
        transport: 'ipc',
        env: process.env,
        keyProtector: keychainProtector(safeStorage, process.platform)
      })
      service = svc
      closeOnQuit(app, () => svc.close())

      bindService(ipcMain, svc, {
        isTrustedSender: createTrustedSenderCheck({
          isAppUrl: (url) => isAppUrl(target, url),
          isOurWebContents: (wcId) => ourWebContents.has(wcId)
        })
      })
      forwardEvents(svc, () => [...windows].map((w) => w.webContents))
      if (Notification.isSupported()) {
        notifyAttention(svc, (notice) => {
          const note = new Notification({ title: notice.title, body: notice.body, silent: false })
          note.on('click', () => openHash(noticeHash(notice)))
          note.show()
        })
      }

      createMainWindow()
      instance?.windowReady()
      // The badge and tray show the needs-you queue, re-read when it says it changed.
      feedNeedsYou({
        read: async () => summaryFromNeeds(await svc.call('needs.list', {})),
        subscribe: (listener) => svc.subscribe((event) => event.name === 'needs.changed' && listener()),
        show: needsYouPresenter()
      })
      app.on('activate', () => {
        if (windows.size === 0) createMainWindow()
        else bringToFront(mainWindow)
      })
    })
    .catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err)
      console.error('[muster] failed to start', err)
      dialog.showErrorBox('Muster could not start', message)
      const closing = service ? service.close().catch(() => undefined) : Promise.resolve()
      void closing.finally(() => app.exit(1))
    })

  app.on('before-quit', () => tray?.destroy())
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
}
