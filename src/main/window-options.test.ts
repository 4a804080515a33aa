import { describe, expect, it } from 'vitest'
import { BACKGROUND, createWindowOptions, MIN_HEIGHT, MIN_WIDTH } from './window-options'

describe('createWindowOptions', () => {
  const base = { preloadPath: '/app/out/preload/index.cjs', bounds: { x: 10, y: 20, width: 1200, height: 800 }, isDev: false }

  it('locks down the web preferences', () => {
    const opts = createWindowOptions(base)
    expect(opts.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      spellcheck: false,
      devTools: false
    })
  })

  it('starts hidden, titled, at the given bounds with a minimum size', () => {
    const opts = createWindowOptions(base)
    expect(opts).toMatchObject({
      show: false,
      title: 'Muster',
      x: 10,
      y: 20,
      width: 1200,
      height: 800,
      minWidth: MIN_WIDTH,
      minHeight: MIN_HEIGHT
    })
  })

  it('never opens smaller than the minimum and omits a half position', () => {
    const opts = createWindowOptions({ ...base, bounds: { x: 5, width: 300, height: 200 } })
    expect(opts.width).toBe(MIN_WIDTH)
    expect(opts.height).toBe(MIN_HEIGHT)
    expect(opts).not.toHaveProperty('x')
    expect(opts).not.toHaveProperty('y')
  })

  it('paints the theme background and enables devtools only in dev', () => {
    expect(createWindowOptions({ ...base, dark: true }).backgroundColor).toBe(BACKGROUND.dark)
    expect(createWindowOptions(base).backgroundColor).toBe(BACKGROUND.light)
    expect(createWindowOptions({ ...base, isDev: true }).webPreferences?.devTools).toBe(true)
  })
})
