import { describe, expect, it } from 'vitest'
import { resolveRendererTarget } from './app-url'
import { ALLOWED_PERMISSIONS, isPermissionAllowed } from './permissions'

const app = resolveRendererTarget({ isPackaged: true, devServerUrl: undefined, rendererRoot: '/opt/muster/out/renderer' })
const dev = resolveRendererTarget({ isPackaged: false, devServerUrl: 'http://localhost:5173/', rendererRoot: '/x' })

/** Every permission Electron names in `setPermissionRequestHandler` / `setPermissionCheckHandler`. */
const ELECTRON_PERMISSIONS = [
  'clipboard-read',
  'clipboard-sanitized-write',
  'display-capture',
  'fullscreen',
  'geolocation',
  'idle-detection',
  'media',
  'mediaKeySystem',
  'midi',
  'midiSysex',
  'notifications',
  'pointerLock',
  'keyboardLock',
  'openExternal',
  'speaker-selection',
  'storage-access',
  'top-level-storage-access',
  'window-management',
  'unknown',
  'fileSystem',
  'hid',
  'serial',
  'usb',
  'deprecated-sync-clipboard-read',
  'background-sync',
  'persistent-storage',
  'local-fonts'
]

describe('the permission handler', () => {
  it('grants the app page only the clipboard write its copy buttons use', () => {
    expect([...ALLOWED_PERMISSIONS]).toEqual(['clipboard-sanitized-write'])
    const granted = ELECTRON_PERMISSIONS.filter((permission) =>
      isPermissionAllowed(app, { permission, requestingUrl: 'app://muster/index.html#/patches', isMainFrame: true })
    )
    expect(granted).toEqual(['clipboard-sanitized-write'])
  })

  it('decides checks, which name an origin, the same way', () => {
    expect(isPermissionAllowed(app, { permission: 'clipboard-sanitized-write', requestingUrl: 'app://muster', isMainFrame: true })).toBe(
      true
    )
    expect(isPermissionAllowed(app, { permission: 'notifications', requestingUrl: 'app://muster', isMainFrame: true })).toBe(false)
  })

  it('refuses everything to another origin, a sub-frame or garbage', () => {
    for (const requestingUrl of [
      'https://evil.example/',
      'file:///opt/muster/out/renderer/index.html',
      'app://evil/index.html',
      '',
      'nonsense'
    ]) {
      expect(isPermissionAllowed(app, { permission: 'clipboard-sanitized-write', requestingUrl, isMainFrame: true }), requestingUrl).toBe(
        false
      )
    }
    expect(
      isPermissionAllowed(app, { permission: 'clipboard-sanitized-write', requestingUrl: 'app://muster/index.html', isMainFrame: false })
    ).toBe(false)
  })

  it('follows the dev server origin while developing, nothing else', () => {
    expect(
      isPermissionAllowed(dev, { permission: 'clipboard-sanitized-write', requestingUrl: 'http://localhost:5173/', isMainFrame: true })
    ).toBe(true)
    expect(
      isPermissionAllowed(dev, { permission: 'clipboard-sanitized-write', requestingUrl: 'http://localhost:5174/', isMainFrame: true })
    ).toBe(false)
    expect(isPermissionAllowed(dev, { permission: 'media', requestingUrl: 'http://localhost:5173/', isMainFrame: true })).toBe(false)
  })
})
