/**
 * CLI errors keep their hint and cause lines (issue 33, point 1): Node's own text for a SQLite addon
 * built for another Node put the fix on its fifth line, and the CLI printed only the first.
 */
import { describe, expect, it } from 'vitest'
import { addonError } from '../core/sqlite'
import { errorText, fail, type CliIo } from './output'

function printed(message: string, json = false, upstream = false): { out: string; err: string } {
  let out = ''
  let err = ''
  const io = { stdout: (t: string) => (out += t), stderr: (t: string) => (err += t) } as unknown as CliIo
  fail(io, json, message, 1, upstream)
  return { out, err }
}

describe('CLI errors', () => {
  it('print the first line, then hint lines indented; --json carries them as detail', () => {
    expect(printed('cannot do it\nrun: muster fix it\n\n')).toEqual({ out: '', err: 'muster: cannot do it\n  run: muster fix it\n' })
    expect(JSON.parse(printed('cannot do it\nrun: muster fix it', true).out)).toEqual({
      error: 'cannot do it',
      detail: ['run: muster fix it']
    })
    expect(JSON.parse(printed('one line', true).out)).toEqual({ error: 'one line' })
    // the mempalace twins print what upstream prints: one line
    expect(printed('bad\nmore', false, true).err).toBe('Error: bad\n')
    // a runaway message stops after eight more lines
    expect(printed(Array.from({ length: 30 }, (_, i) => `l${i}`).join('\n')).err.split('\n')).toHaveLength(10)
  })

  it('name their cause, once', () => {
    const e = new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9\n  at x') })
    expect(errorText(e)).toBe('fetch failed\ncause: connect ECONNREFUSED 127.0.0.1:9')
    expect(errorText(new Error('x: boom', { cause: new Error('boom') }))).toBe('x: boom')
    expect(errorText('plain')).toBe('plain')
  })

  it("a SQLite addon built for another Node: Node's five lines become one line and the command to run", () => {
    const node = new Error(
      "The module '/repo/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
        'was compiled against a different Node.js version using\n' +
        'NODE_MODULE_VERSION 115. This version of Node.js requires\n' +
        'NODE_MODULE_VERSION 127. Please try re-compiling or re-installing\n' +
        'the module (for instance, using `npm rebuild` or `npm install`).'
    )
    Object.assign(node, { code: 'ERR_DLOPEN_FAILED' })
    const e = addonError(node, '/repo/node_modules/better-sqlite3/build/Release/better_sqlite3.node')!
    expect(printed(errorText(e)).err).toBe(
      `muster: the SQLite addon (better-sqlite3) was built for Node.js 20 (NODE_MODULE_VERSION 115), not for this Node.js ${process.version} (NODE_MODULE_VERSION ${process.versions.modules})\n` +
        '  run: npm rebuild better-sqlite3 (in /repo)\n'
    )
    expect(e.cause).toBe(node)
    expect(addonError(new Error('SQLITE_BUSY: database is locked'), null)).toBeNull()
  })
})
