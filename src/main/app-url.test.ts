import { describe, expect, it } from 'vitest'
import { pathToFileURL } from 'node:url'
import { isAppUrl, isLoopbackHost, resolveRendererTarget } from './app-url'

const file = '/opt/muster/out/renderer/index.html'

describe('resolveRendererTarget', () => {
  it('loads the built file by default', () => {
    const t = resolveRendererTarget({ isPackaged: false, devServerUrl: undefined, rendererFile: file })
    expect(t).toEqual({ kind: 'file', file, url: pathToFileURL(file).href })
  })
  it('follows a loopback dev server only when unpackaged', () => {
    const dev = resolveRendererTarget({ isPackaged: false, devServerUrl: 'http://localhost:5173/', rendererFile: file })
    expect(dev).toEqual({ kind: 'dev', url: 'http://localhost:5173/', origin: 'http://localhost:5173' })
    expect(resolveRendererTarget({ isPackaged: true, devServerUrl: 'http://localhost:5173/', rendererFile: file }).kind).toBe('file')
  })
  it('ignores a dev server URL that is not loopback http', () => {
    for (const devServerUrl of [
      'https://evil.example/',
      'http://192.168.1.4:5173',
      'javascript:alert(1)',
      'not a url',
      'http://u:p@localhost:5173'
    ]) {
      expect(resolveRendererTarget({ isPackaged: false, devServerUrl, rendererFile: file }).kind).toBe('file')
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
  const fileTarget = resolveRendererTarget({ isPackaged: true, devServerUrl: undefined, rendererFile: file })
  const devTarget = resolveRendererTarget({ isPackaged: false, devServerUrl: 'http://localhost:5173', rendererFile: file })

  it('accepts the app page with any hash or query', () => {
    expect(isAppUrl(fileTarget, pathToFileURL(file).href)).toBe(true)
    expect(isAppUrl(fileTarget, `${pathToFileURL(file).href}#/projects/a`)).toBe(true)
    expect(isAppUrl(fileTarget, `${pathToFileURL(file).href}?x=1`)).toBe(true)
  })
  it('rejects other files, other schemes and garbage', () => {
    expect(isAppUrl(fileTarget, 'file:///etc/passwd')).toBe(false)
    expect(isAppUrl(fileTarget, 'file:///opt/muster/out/renderer/other.html')).toBe(false)
    expect(isAppUrl(fileTarget, 'file:///opt/muster/out/renderer/../renderer/index.html')).toBe(true) // URL normalises ..
    expect(isAppUrl(fileTarget, 'file://remote-host/opt/muster/out/renderer/index.html')).toBe(false)
    expect(isAppUrl(fileTarget, 'https://example.com/')).toBe(false)
    expect(isAppUrl(fileTarget, 'about:blank')).toBe(false)
    expect(isAppUrl(fileTarget, '')).toBe(false)
  })
  it('accepts any path on the dev server origin, nothing else', () => {
    expect(isAppUrl(devTarget, 'http://localhost:5173/')).toBe(true)
    expect(isAppUrl(devTarget, 'http://localhost:5173/src/main.tsx')).toBe(true)
    expect(isAppUrl(devTarget, 'http://localhost:5174/')).toBe(false)
    expect(isAppUrl(devTarget, 'http://127.0.0.1:5173/')).toBe(false)
    expect(isAppUrl(devTarget, pathToFileURL(file).href)).toBe(false)
  })
})
