import { describe, expect, it } from 'vitest'
import { APP_INDEX_URL, isAppOrigin, isAppUrl, isLoopbackHost, resolveRendererTarget } from './app-url'

const rendererRoot = '/opt/muster/out/renderer'

describe('resolveRendererTarget', () => {
  it('serves the built renderer over app:// by default', () => {
    const t = resolveRendererTarget({ isPackaged: false, devServerUrl: undefined, rendererRoot })
    expect(t).toEqual({ kind: 'app', root: rendererRoot, url: 'app://muster/index.html' })
  })
  it('follows a loopback dev server only when unpackaged', () => {
    const dev = resolveRendererTarget({ isPackaged: false, devServerUrl: 'http://localhost:5173/', rendererRoot })
    expect(dev).toEqual({ kind: 'dev', url: 'http://localhost:5173/', origin: 'http://localhost:5173' })
    expect(resolveRendererTarget({ isPackaged: true, devServerUrl: 'http://localhost:5173/', rendererRoot }).kind).toBe('app')
  })
  it('ignores a dev server URL that is not loopback http', () => {
    for (const devServerUrl of [
      'https://evil.example/',
      'http://192.168.1.4:5173',
      'javascript:alert(1)',
      'not a url',
      'http://u:p@localhost:5173'
    ]) {
      expect(resolveRendererTarget({ isPackaged: false, devServerUrl, rendererRoot }).kind).toBe('app')
    }
  })
})

describe('isLoopbackHost', () => {
  it('accepts loopback names only', () => {
    expect(isLoopbackHost('localhost')).toBe(true)
    expect(isLoopbackHost('127.0.0.1')).toBe(true)
    expect(isLoopbackHost('[::1]')).toBe(true)
    expect(isLoopbackHost('localhost.evil.com')).toBe(false)
    expect(isLoopbackHost('10.0.0.1')).toBe(false)
  })
})

describe('isAppUrl', () => {
  const appTarget = resolveRendererTarget({ isPackaged: true, devServerUrl: undefined, rendererRoot })
  const devTarget = resolveRendererTarget({ isPackaged: false, devServerUrl: 'http://localhost:5173', rendererRoot })

  it('accepts the app page with any hash or query', () => {
    expect(isAppUrl(appTarget, APP_INDEX_URL)).toBe(true)
    expect(isAppUrl(appTarget, `${APP_INDEX_URL}#/approvals?id=x`)).toBe(true)
    expect(isAppUrl(appTarget, `${APP_INDEX_URL}?x=1`)).toBe(true)
    expect(isAppUrl(appTarget, 'app://muster/')).toBe(true)
    expect(isAppUrl(appTarget, 'app://muster/assets/../index.html')).toBe(true) // URL normalises ..
  })
  it('rejects other pages, hosts, schemes and garbage', () => {
    expect(isAppUrl(appTarget, 'app://muster/assets/index.js')).toBe(false)
    expect(isAppUrl(appTarget, 'app://evil/index.html')).toBe(false)
    expect(isAppUrl(appTarget, 'app://muster:8080/index.html')).toBe(false)
    expect(isAppUrl(appTarget, 'app://u:p@muster/index.html')).toBe(false)
    expect(isAppUrl(appTarget, `file://${rendererRoot}/index.html`)).toBe(false)
    expect(isAppUrl(appTarget, 'https://muster/index.html')).toBe(false)
    expect(isAppUrl(appTarget, 'about:blank')).toBe(false)
    expect(isAppUrl(appTarget, '')).toBe(false)
  })
  it('accepts any path on the dev server origin, nothing else', () => {
    expect(isAppUrl(devTarget, 'http://localhost:5173/')).toBe(true)
    expect(isAppUrl(devTarget, 'http://localhost:5173/src/main.tsx')).toBe(true)
    expect(isAppUrl(devTarget, 'http://localhost:5174/')).toBe(false)
    expect(isAppUrl(devTarget, 'http://127.0.0.1:5173/')).toBe(false)
    expect(isAppUrl(devTarget, APP_INDEX_URL)).toBe(false)
  })
})

describe('isAppOrigin', () => {
  it('is the app scheme on its one host', () => {
    expect(isAppOrigin('app://muster/anything')).toBe(true)
    expect(isAppOrigin('app://muster')).toBe(true)
    expect(isAppOrigin('app://muster.evil/')).toBe(false)
    expect(isAppOrigin('apps://muster/')).toBe(false)
    expect(isAppOrigin('nonsense')).toBe(false)
  })
})
