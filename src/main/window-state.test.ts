import { afterEach, describe, expect, it, vi } from 'vitest'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  captureWindowState,
  clampToDisplays,
  DEFAULT_WINDOW_STATE,
  parseWindowState,
  readWindowState,
  trackWindowState,
  writeWindowState,
  type TrackableWindow
} from './window-state'

const dirs: string[] = []
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'muster-ws-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('parseWindowState', () => {
  it('reads a valid state', () => {
    expect(parseWindowState('{"x":10,"y":20,"width":1000,"height":700,"isMaximized":true}')).toEqual({
      x: 10,
      y: 20,
      width: 1000,
      height: 700,
      isMaximized: true
    })
  })
  it('drops a half position and rejects nonsense', () => {
    expect(parseWindowState('{"x":10,"width":1000,"height":700}')).toEqual({ width: 1000, height: 700, isMaximized: false })
    for (const text of [
      '',
      'null',
      '[]',
      '{"width":"big","height":700}',
      '{"width":5,"height":700}',
      '{"width":1e9,"height":700}',
      '{"width":1000}',
      '{bad json'
    ]) {
      expect(parseWindowState(text), text).toBeNull()
    }
  })
})

describe('readWindowState / writeWindowState', () => {
  it('round-trips through the file', () => {
    const file = join(tempDir(), 'nested', 'window-state.json')
    writeWindowState(file, { x: 1, y: 2, width: 900, height: 600, isMaximized: false })
    expect(readWindowState(file)).toEqual({ x: 1, y: 2, width: 900, height: 600, isMaximized: false })
  })
  it('gives defaults for a missing or corrupt file', () => {
    const dir = tempDir()
    expect(readWindowState(join(dir, 'nope.json'))).toEqual(DEFAULT_WINDOW_STATE)
    writeFileSync(join(dir, 'bad.json'), '\u0000\u0001garbage')
    expect(readWindowState(join(dir, 'bad.json'))).toEqual(DEFAULT_WINDOW_STATE)
  })
  it('leaves no temp file behind and replaces atomically', () => {
    const dir = tempDir()
    const file = join(dir, 'window-state.json')
    writeWindowState(file, { width: 900, height: 600, isMaximized: false })
    writeWindowState(file, { width: 1000, height: 700, isMaximized: true })
    expect(readdirSync(dir)).toEqual(['window-state.json'])
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ width: 1000, height: 700, isMaximized: true })
  })
  it('throws (and cleans up) when the folder cannot be written', () => {
    const dir = tempDir()
    const blocker = join(dir, 'file')
    writeFileSync(blocker, 'x')
    expect(() => writeWindowState(join(blocker, 'window-state.json'), DEFAULT_WINDOW_STATE)).toThrow()
  })
})

describe('clampToDisplays', () => {
  const primary = { workArea: { x: 0, y: 25, width: 1920, height: 1055 } }
  const right = { workArea: { x: 1920, y: 0, width: 1280, height: 1024 } }

  it('keeps a visible window where it is', () => {
    const s = { x: 100, y: 100, width: 1200, height: 800, isMaximized: false }
    expect(clampToDisplays(s, [primary, right])).toEqual(s)
    const onRight = { x: 2000, y: 50, width: 1000, height: 800, isMaximized: false }
    expect(clampToDisplays(onRight, [primary, right])).toEqual(onRight)
  })
  it('centres a window whose display is gone', () => {
    const s = { x: 2000, y: 50, width: 1000, height: 800, isMaximized: true }
    expect(clampToDisplays(s, [primary])).toEqual({ x: 460, y: 153, width: 1000, height: 800, isMaximized: true })
  })
  it('pulls a partly off-screen window inside its display', () => {
    const s = { x: 1500, y: -300, width: 1000, height: 800, isMaximized: false }
    expect(clampToDisplays(s, [primary])).toEqual({ x: 920, y: 25, width: 1000, height: 800, isMaximized: false })
  })
  it('shrinks a window larger than every display', () => {
    const s = { x: 0, y: 0, width: 5000, height: 3000, isMaximized: false }
    expect(clampToDisplays(s, [primary, right])).toMatchObject({ width: 1920, height: 1055, x: 0, y: 25 })
  })
  it('places a first-start window in the centre of the primary display', () => {
    expect(clampToDisplays(DEFAULT_WINDOW_STATE, [primary, right])).toEqual({ ...DEFAULT_WINDOW_STATE, x: 320, y: 143 })
  })
  it('returns the state unchanged with no displays', () => {
    expect(clampToDisplays(DEFAULT_WINDOW_STATE, [])).toEqual(DEFAULT_WINDOW_STATE)
  })
})

function fakeWindow() {
  const listeners = new Map<string, () => void>()
  let destroyed = false
  const win: TrackableWindow & { emit(e: string): void; destroy(): void } = {
    getNormalBounds: () => ({ x: 5, y: 6, width: 1000, height: 700 }),
    isMaximized: () => true,
    isFullScreen: () => false,
    isDestroyed: () => destroyed,
    on: (event, fn) => listeners.set(event, fn),
    emit: (e) => listeners.get(e)?.(),
    destroy: () => (destroyed = true)
  }
  return win
}

describe('trackWindowState', () => {
  it('captures normal bounds with the maximised flag', () => {
    expect(captureWindowState(fakeWindow())).toEqual({ x: 5, y: 6, width: 1000, height: 700, isMaximized: true })
  })
  it('debounces moves and saves on close', () => {
    vi.useFakeTimers()
    try {
      const win = fakeWindow()
      const save = vi.fn()
      trackWindowState(win, { save, debounceMs: 100 })
      win.emit('move')
      win.emit('resize')
      win.emit('move')
      expect(save).not.toHaveBeenCalled()
      vi.advanceTimersByTime(100)
      expect(save).toHaveBeenCalledTimes(1)
      win.emit('resize')
      win.emit('close')
      expect(save).toHaveBeenCalledTimes(2)
      vi.advanceTimersByTime(1000)
      expect(save).toHaveBeenCalledTimes(2)
    } finally {
      vi.useRealTimers()
    }
  })
  it('does not touch a destroyed window and survives a failing save', () => {
    const win = fakeWindow()
    const save = vi.fn(() => {
      throw new Error('disk full')
    })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    trackWindowState(win, { save })
    win.emit('close')
    expect(warn).toHaveBeenCalled()
    win.destroy()
    win.emit('close')
    expect(save).toHaveBeenCalledTimes(1)
    warn.mockRestore()
  })
})
