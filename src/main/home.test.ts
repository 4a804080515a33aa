import { describe, expect, it } from 'vitest'
import { resolve } from 'node:path'
import { homeFromArgv, resolveHome } from './home'

describe('homeFromArgv', () => {
  it('reads --home DIR and --home=DIR, last one wins', () => {
    expect(homeFromArgv(['electron', '.', '--home', '/data/m'])).toBe('/data/m')
    expect(homeFromArgv(['electron', '.', '--home=/data/x'])).toBe('/data/x')
    expect(homeFromArgv(['--home', '/a', '--home=/b'])).toBe('/b')
  })
  it('ignores a dangling or empty flag and anything after --', () => {
    expect(homeFromArgv(['--home'])).toBeUndefined()
    expect(homeFromArgv(['--home', '--inspect'])).toBeUndefined()
    expect(homeFromArgv(['--home='])).toBeUndefined()
    expect(homeFromArgv(['--', '--home', '/a'])).toBeUndefined()
    expect(homeFromArgv(['--homex', '/a'])).toBeUndefined()
  })
})

describe('resolveHome', () => {
  const userData = '/users/me/.config/Muster'
  it('prefers the argument, then MUSTER_HOME, then userData', () => {
    expect(resolveHome({ argv: ['--home', '/arg'], env: { MUSTER_HOME: '/env' }, userData })).toBe('/arg')
    expect(resolveHome({ argv: [], env: { MUSTER_HOME: '/env' }, userData })).toBe('/env')
    expect(resolveHome({ argv: [], env: { MUSTER_HOME: '  ' }, userData })).toBe(userData)
    expect(resolveHome({ argv: [], env: {}, userData })).toBe(userData)
  })
  it('resolves relative folders against cwd', () => {
    expect(resolveHome({ argv: ['--home', 'data'], env: {}, userData, cwd: '/work' })).toBe(resolve('/work', 'data'))
    expect(resolveHome({ argv: [], env: { MUSTER_HOME: 'h' }, userData, cwd: '/work' })).toBe(resolve('/work', 'h'))
  })
})
