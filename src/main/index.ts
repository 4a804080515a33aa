/**
 * The Electron main process: the only file (with the preload) that imports Electron values.
 * It wires the tested pieces together: single-instance lock, Muster home, the Electron-ABI
 * SQLite addon, the service, the IPC binding, security, the window and its remembered bounds.
 */
import { app, BrowserWindow, dialog, ipcMain, nativeTheme, Notification, screen, session, shell } from 'electron'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createService } from '../core/service'
import type { MusterService } from '../core/service-types'
import { setSqliteNativeBinding } from '../core/sqlite'
import { isAppUrl, resolveRendererTarget } from './app-url'
import { resolveHome } from './home'
import { bindService, createTrustedSenderCheck, forwardEvents } from './ipc-binding'
import { notifyAttention } from './inbox-notifier'
import { closeOnQuit } from './lifecycle'
import { resolveNativeBinding } from './native-binding'
import { installSecurity } from './security'
import { createWindowOptions } from './window-options'
import { clampToDisplays, readWindowState, trackWindowState, WINDOW_STATE_FILE, writeWindowState } from './window-state'

const mainDir = dirname(fileURLToPath(import.meta.url))
const PRELOAD_PATH = join(mainDir, '../preload/index.cjs')
const RENDERER_FILE = join(mainDir, '../renderer/index.html')

// Every renderer sandboxed, whatever its options say. Must run before `ready`.
app.enableSandbox()

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  start()
}

function start(): void {
  const target = resolveRendererTarget({
    isPackaged: app.isPackaged,
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    rendererFile: RENDERER_FILE
  })
  const windows = new Set<BrowserWindow>()
  const ourWebContents = new Set<number>()
  let service: MusterService | null = null

  app.on('second-instance', () => {
    const win = [...windows][0]
    if (!win) return
    if (win.isMinimized()) win.restore()
    win.focus()
  })

  function createMainWindow(): BrowserWindow {
    const stateFile = join(app.getPath('userData'), WINDOW_STATE_FILE)
    const primary = screen.getPrimaryDisplay()
    const displays = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)]
    const state = clampToDisplays(readWindowState(stateFile), displays)
    const win = new BrowserWindow(
      createWindowOptions({ preloadPath: PRELOAD_PATH, bounds: state, isDev: target.kind === 'dev', dark: nativeTheme.shouldUseDarkColors })
    )
    const id = win.webContents.id
    windows.add(win)
    ourWebContents.add(id)
    win.on('closed', () => {
      windows.delete(win)
      ourWebContents.delete(id)
    })
    trackWindowState(win, { save: (s) => writeWindowState(stateFile, s) })
    win.once('ready-to-show', () => {
      if (state.isMaximized) win.maximize()
      win.show()
    })
    win.webContents.on('render-process-gone', (_e, details) => console.error(`[muster] renderer gone: ${details.reason}`))
    const load = target.kind === 'dev' ? win.loadURL(target.url) : win.loadFile(target.file)
    load.catch((err: unknown) => console.error('[muster] could not load the app page', err))
    return win
  }

  app
    .whenReady()
    .then(async () => {
      installSecurity({ app, session: session.defaultSession, shell, target })

      const home = resolveHome({ argv: process.argv, env: process.env, userData: app.getPath('userData') })
      setSqliteNativeBinding(
        resolveNativeBinding({
          appRoot: app.getAppPath(),
          electronVersion: process.versions.electron ?? '',
          env: process.env,
          exists: existsSync
        })
      )
      const svc = await createService({ home, transport: 'ipc' })
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
        notifyAttention(svc, ({ title, body, target }) => {
          const note = new Notification({ title, body, silent: false })
          note.on('click', () => {
            const win = [...windows][0]
            if (!win) return
            if (win.isMinimized()) win.restore()
            win.show()
            win.focus()
            if (target === 'approvals') void win.webContents.executeJavaScript("location.hash = '#/approvals'").catch(() => undefined)
          })
          note.show()
        })
      }

      createMainWindow()
      app.on('activate', () => {
        if (windows.size === 0) createMainWindow()
      })
    })
    .catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err)
      console.error('[muster] failed to start', err)
      dialog.showErrorBox('Muster could not start', message)
      const closing = service ? service.close().catch(() => undefined) : Promise.resolve()
      void closing.finally(() => app.exit(1))
    })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
}
