import {
  chmodSync,
  closeSync,
  existsSync,
  ftruncateSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renameOnce } from '../../../test/helpers/agent-rename'
import { tmpDir } from '../../../test/helpers/tmp'
import { safeEdit, setDefaultSafeWriteHooks, type SafeEditOptions } from './safe-write'
import { LATE_WRITE_GRACE_MS, lateWritesSettled } from './safe-write-keeper'
import { RoleCache, scanProjects } from './fleet-scan'
import { replacedWrites } from './safe-write-witness'
import { canExchange } from './rename-exchange'
import { deadLeftovers } from './write-leftovers'

/** Our edit: add a unique line once (idempotent, as every Muster edit is). */
const addOnce = (line: string) => (t: string) => (t.includes(line) ? null : t + line)
const occurrences = (text: string, part: string) => text.split(part).length - 1

function file(content: string | Buffer = 'one\n'): { dir: string; f: string; opts: SafeEditOptions } {
  const dir = tmpDir()
  const f = join(dir, 'a.md')
  writeFileSync(f, content)
  return { dir, f, opts: { within: dir } }
}
/** The folder holds exactly `names` once the copies kept for late appends were let go. */
const only = async (dir: string, ...names: string[]) => {
  await lateWritesSettled()
  expect(readdirSync(dir).sort()).toEqual(names.sort())
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('safeEdit: the basics', () => {
  it('keeps BOM and CRLF byte for byte', async () => {
    const { f, opts } = file(Buffer.from('\uFEFFa\r\nb\r\n', 'utf8'))
    await safeEdit(f, (t) => t.replace('b\r\n', 'b\r\nc\r\n'), opts)
    expect(readFileSync(f)).toEqual(Buffer.from('\uFEFFa\r\nb\r\nc\r\n', 'utf8'))
  })

  it('keeps the file mode', async () => {
    const { f, opts } = file('x')
    chmodSync(f, 0o640)
    await safeEdit(f, addOnce('y'), opts)
    expect(statSync(f).mode & 0o777).toBe(0o640)
    expect(readFileSync(f, 'utf8')).toBe('xy')
  })

  it('refuses a read-only file with a clear error and leaves it unchanged', async () => {
    const { f, opts } = file('x\n')
    chmodSync(f, 0o444)
    await expect(safeEdit(f, addOnce('y'), opts)).rejects.toThrow(/read-only: not changed/)
    expect(readFileSync(f, 'utf8')).toBe('x\n')
    chmodSync(f, 0o644)
  })

  it('refuses files that are not valid UTF-8 instead of corrupting them', async () => {
    const { f, opts } = file(Buffer.from([0x61, 0xff, 0x0a]))
    await expect(safeEdit(f, addOnce('y'), opts)).rejects.toThrow('a.md is not valid UTF-8: not changed')
    expect(readFileSync(f)).toEqual(Buffer.from([0x61, 0xff, 0x0a]))
  })

  it('a null edit writes nothing', async () => {
    const { f, opts } = file('x')
    const before = statSync(f)
    expect(await safeEdit(f, () => null, opts)).toMatchObject({ changed: false, applied: null })
    expect(statSync(f).mtimeMs).toBe(before.mtimeMs)
    expect(statSync(f).ino).toBe(before.ino)
  })

  it('returns what the edit was applied to, for an exact undo', async () => {
    const { f, opts } = file('one\n')
    expect(await safeEdit(f, addOnce('two\n'), opts)).toEqual({
      changed: true,
      created: false,
      text: 'one\ntwo\n',
      applied: { before: 'one\n', after: 'one\ntwo\n' }
    })
  })

  it('missing file: not_found unless create is asked; create does not clobber a racing creator', async () => {
    const dir = tmpDir()
    await expect(safeEdit(join(dir, 'n.md'), addOnce('x'), { within: dir })).rejects.toMatchObject({ code: 'not_found' })
    const f = join(dir, 'c.md')
    const r = await safeEdit(f, (t) => (t.includes('entry') ? null : (t || '# head\n') + 'entry\n'), {
      within: dir,
      create: true,
      hooks: { beforeRename: (p, a) => void (a === 1 && writeFileSync(p, '# theirs\n')) }
    })
    expect(r.created).toBe(false)
    expect(readFileSync(f, 'utf8')).toBe('# theirs\nentry\n')
    await only(dir, 'c.md')
  })
})

describe('safeEdit: an agent writing between the read and the swap', () => {
  it('an append: the edit is redone on the appended content (order kept)', async () => {
    const { dir, f, opts } = file('one\n')
    let calls = 0
    const r = await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: { beforeRename: (p, attempt) => void (calls++, attempt === 1 && writeFileSync(p, 'agent\n', { flag: 'a' })) }
    })
    expect(calls).toBe(2)
    expect(r.changed).toBe(true)
    expect(readFileSync(f, 'utf8')).toBe('one\nagent\nmine\n')
    await only(dir, 'a.md')
  })

  it('an agent that keeps appending cannot starve the edit: its bytes are merged instead', async () => {
    const { dir, f, opts } = file('one\n')
    let n = 0
    await safeEdit(f, addOnce('mine\n'), { ...opts, hooks: { beforeRename: (p) => writeFileSync(p, `agent ${++n}\n`, { flag: 'a' }) } })
    const text = readFileSync(f, 'utf8')
    for (let i = 1; i <= n; i++) expect(occurrences(text, `agent ${i}\n`)).toBe(1)
    expect(occurrences(text, 'mine\n')).toBe(1)
    await only(dir, 'a.md')
  })

  it('a rewrite the edit was not computed from goes back to the path; then a bounded conflict, nothing written', async () => {
    const { dir, f, opts } = file('x\n')
    let n = 0
    await expect(
      safeEdit(f, addOnce('mine\n'), { ...opts, timeoutMs: 300, hooks: { beforeRename: (p) => writeFileSync(p, `agent ${++n}\n`) } })
    ).rejects.toThrow(/a\.md kept changing while Muster was editing it \(0 s\): nothing written; try again/)
    expect(readFileSync(f, 'utf8')).toBe(`agent ${n}\n`)
    await only(dir, 'a.md')
  })

  it('a file deleted mid-edit is a clear error; nothing is created or left behind', async () => {
    const { dir, f, opts } = file('x\n')
    await expect(safeEdit(f, addOnce('y'), { ...opts, hooks: { beforeRename: (p) => rmSync(p) } })).rejects.toThrow(
      /deleted while Muster was editing it: nothing written/
    )
    expect(existsSync(f)).toBe(false)
    await only(dir)
  })
})

describe('safeEdit: an agent writing after the swap', () => {
  it('append mode: a line written through a descriptor opened before the swap lands in the file', async () => {
    const { dir, f, opts } = file('one\n')
    let fd = -1
    const r = await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: {
        beforeRename: (p, a) => void (a === 1 && (fd = openSync(p, 'a'))),
        afterInstall: (_p, a) => {
          if (a !== 1) return
          writeSync(fd, 'late agent line\n')
          closeSync(fd)
        }
      }
    })
    expect(r.changed).toBe(true)
    expect(readFileSync(f, 'utf8')).toBe('one\nmine\nlate agent line\n')
    await only(dir, 'a.md')
  })

  it('append mode: a descriptor opened before the swap and written after the edit returned (a stalled agent): the line lands in the file', async () => {
    const { dir, f, opts } = file('one\n')
    let fd = -1
    const r = await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: { beforeRename: (p, a) => void (a === 1 && (fd = openSync(p, 'a'))) }
    })
    expect(r.changed).toBe(true)
    expect(readFileSync(f, 'utf8')).toBe('one\nmine\n')
    // the agent wakes up well after the edit's quiet window, within the grace
    await sleep(Math.min(600, LATE_WRITE_GRACE_MS / 2))
    writeSync(fd, 'stalled agent line\n')
    closeSync(fd)
    await only(dir, 'a.md')
    expect(readFileSync(f, 'utf8')).toBe('one\nmine\nstalled agent line\n')
  })

  it('a late line merged after the edit returned survives an agent rewriting the file from a read older than the merge', async () => {
    const { dir, f, opts } = file('one\n')
    let fd = -1
    await safeEdit(f, addOnce('mine\n'), { ...opts, hooks: { beforeRename: (p, a) => void (a === 1 && (fd = openSync(p, 'a'))) } })
    const stale = readFileSync(f, 'utf8')
    let rewrites = 0
    // the merge's own install: a truncating agent that read before it writes its version back over it
    setDefaultSafeWriteHooks({ afterInstall: (p) => void (rewrites++ === 0 && writeFileSync(p, stale + 'agent two\n')) })
    try {
      writeSync(fd, 'stalled agent line\n')
      closeSync(fd)
      await only(dir, 'a.md')
    } finally {
      setDefaultSafeWriteHooks(undefined)
    }
    expect(rewrites).toBeGreaterThan(0)
    expect(readFileSync(f, 'utf8')).toBe('one\nmine\nagent two\nstalled agent line\n')
  })

  it('a copy rewritten after its edit returned is kept beside the file, never deleted', async () => {
    const { dir, f, opts } = file('one\n')
    let fd = -1
    await safeEdit(f, addOnce('mine\n'), { ...opts, hooks: { beforeRename: (p, a) => void (a === 1 && (fd = openSync(p, 'r+'))) } })
    ftruncateSync(fd, 0)
    writeSync(fd, 'a rewrite\n', 0)
    closeSync(fd)
    await lateWritesSettled()
    const kept = readdirSync(dir).filter((n) => n !== 'a.md')
    expect(kept).toHaveLength(1)
    expect(readFileSync(join(dir, kept[0]!), 'utf8')).toBe('a rewrite\n')
    expect(readFileSync(f, 'utf8')).toBe('one\nmine\n')
  })

  it('an agent that read before the swap and writes after it: the edit is re-applied, its line kept', async () => {
    const { dir, f, opts } = file('one\n')
    await safeEdit(f, addOnce('mine\n'), { ...opts, hooks: { afterInstall: (p, a) => void (a === 1 && writeFileSync(p, 'one\nagent\n')) } })
    expect(readFileSync(f, 'utf8')).toBe('one\nagent\nmine\n')
    await only(dir, 'a.md')
  })

  it('an agent that truncated its descriptor of the old copy and rewrites it: that copy goes back to the path', async () => {
    const { dir, f, opts } = file('one\n')
    let fd = -1
    await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: {
        beforeRename: (p, a) => void (a === 1 && (fd = openSync(p, 'r+'))),
        afterInstall: async (_p, a) => {
          if (a !== 1) return
          ftruncateSync(fd, 0)
          await sleep(40)
          writeSync(fd, 'rewritten by the agent\n', 0)
          closeSync(fd)
        }
      }
    })
    expect(readFileSync(f, 'utf8')).toBe('rewritten by the agent\nmine\n')
    await only(dir, 'a.md')
  })
})

describe('safeEdit: the path is never missing; an agent writing right before the final check', () => {
  it('the path holds a whole version at every moment of the swap', async () => {
    const { dir, f, opts } = file('# L0\none\n')
    const seen: string[] = []
    await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: {
        beforeRename: (p) => void seen.push(readFileSync(p, 'utf8')),
        inWindow: (p) => void seen.push(readFileSync(p, 'utf8')),
        afterInstall: (p) => void seen.push(readFileSync(p, 'utf8'))
      }
    })
    expect(seen).toEqual(['# L0\none\n', '# L0\none\n', '# L0\none\nmine\n'])
    await only(dir, 'a.md')
  })

  it('a whole version renamed in (temp + rename) wins; the edit is redone on it', async () => {
    const { dir, f, opts } = file('# L0\none\n')
    await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: { inWindow: renameOnce(dir, '# L0\none\ntheirs\n') }
    })
    expect(readFileSync(f, 'utf8')).toBe('# L0\none\ntheirs\nmine\n')
    await only(dir, 'a.md')
  })

  it('exchange is available here (Linux, macOS): the window tests below run', () => {
    if (process.platform === 'linux' || process.platform === 'darwin') expect(canExchange(tmpDir())).toBe(true)
  })

  it.skipIf(!canExchange(tmpDir()))(
    'the residual window: a version renamed over the path between the final check and the exchange is handed back, and the edit redone on it',
    async () => {
      const { dir, f, opts } = file('# L0\none\n')
      const before = replacedWrites.length
      await safeEdit(f, addOnce('mine\n'), {
        ...opts,
        hooks: { afterCheck: renameOnce(dir, '# L0\none\ntheirs\n') }
      })
      expect(readFileSync(f, 'utf8')).toBe('# L0\none\ntheirs\nmine\n')
      expect(replacedWrites.length).toBe(before)
      await only(dir, 'a.md')
    }
  )

  it.skipIf(!canExchange(tmpDir()))(
    'two writers renaming in that instant: the newer version ends at the path, the older is kept beside it, nothing deleted',
    async () => {
      const { dir, f, opts } = file('# L0\none\n')
      const edit = safeEdit(f, addOnce('mine\n'), {
        ...opts,
        hooks: {
          afterCheck: renameOnce(dir, '# L0\none\nfirst\n'),
          // replaces Muster's version right after the exchange, as a second writer's rename would
          afterExchange: renameOnce(dir, '# L0\none\nfirst\nsecond\n')
        }
      })
      await expect(edit).rejects.toThrow(
        /two writers at once; Muster's edit is in the file; the other version is kept beside it as \.a\.md/
      )
      expect(readFileSync(f, 'utf8')).toBe('# L0\none\nfirst\nsecond\nmine\n')
      await lateWritesSettled()
      const kept = readdirSync(dir).filter((n) => n !== 'a.md')
      expect(kept).toHaveLength(1)
      expect(readFileSync(join(dir, kept[0]!), 'utf8')).toBe('# L0\none\nfirst\n')
    }
  )

  it('a swap with no other writer reports nothing replaced', async () => {
    const { dir, f, opts } = file('# L0\none\n')
    const before = replacedWrites.length
    for (const line of ['a\n', 'b\n', 'c\n']) await safeEdit(f, addOnce(line), opts)
    expect(readFileSync(f, 'utf8')).toBe('# L0\none\na\nb\nc\n')
    expect(replacedWrites.length).toBe(before)
    await only(dir, 'a.md')
  })

  it('a line appended is caught by the check: the edit is redone after it (order kept)', async () => {
    const { dir, f, opts } = file('# L0\none\n')
    let fired = false
    await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: { inWindow: (p) => void (!fired && (fired = true) && writeFileSync(p, 'appended line\n', { flag: 'a' })) }
    })
    expect(readFileSync(f, 'utf8')).toBe('# L0\none\nappended line\nmine\n')
    await only(dir, 'a.md')
  })

  it('an appender that opened the file before the rename and writes after it is merged once', async () => {
    const { dir, f, opts } = file('# L0\none\n')
    let fd = -1
    await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: {
        inWindow: (p) => void (fd < 0 && (fd = openSync(p, 'a'))),
        afterInstall: (_p, a) => {
          if (a !== 1) return
          writeSync(fd, 'late line\n')
          closeSync(fd)
        }
      }
    })
    expect(readFileSync(f, 'utf8')).toBe('# L0\none\nmine\nlate line\n')
    await only(dir, 'a.md')
  })

  it('a truncating agent that opened the old version before the rename and writes half, stalls, then the rest: its version is the base', async () => {
    const { dir, f, opts } = file('# L0\none\n')
    let fd = -1
    await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: {
        inWindow: (p) => void (fd < 0 && (fd = openSync(p, 'r+'))),
        afterInstall: (_p, a) => {
          if (a !== 1) return
          const whole = '# L0\none\nagent line\n'
          ftruncateSync(fd, 0)
          writeSync(fd, whole.slice(0, 6), 0)
          setTimeout(() => {
            writeSync(fd, whole.slice(6), 6)
            closeSync(fd)
          }, 300)
        }
      }
    })
    expect(readFileSync(f, 'utf8')).toBe('# L0\none\nagent line\nmine\n')
    await only(dir, 'a.md')
  })
})

describe('safeEdit: an empty or shorter file is not a base until settled', () => {
  it('waits for a truncate-then-write agent to write, then edits the whole file', async () => {
    const content = Array.from({ length: 522 }, (_, i) => `line ${i}\n`).join('')
    const { f, opts } = file(content)
    const fd = openSync(f, 'w') // truncated, held open like the reported reproduction
    setTimeout(() => {
      writeSync(fd, content)
      closeSync(fd)
    }, 400)
    const r = await safeEdit(f, addOnce('mine\n'), opts)
    expect(r.changed).toBe(true)
    expect(readFileSync(f, 'utf8')).toBe(content + 'mine\n')
  })

  it('an agent truncating after the read: the emptied file goes back and the edit waits for its write', async () => {
    const content = '# L0\n' + 'x\n'.repeat(50)
    const { dir, f, opts } = file(content)
    await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      hooks: {
        beforeRename: (p, a) => {
          if (a !== 1) return
          const fd = openSync(p, 'w')
          setTimeout(() => {
            writeSync(fd, content + 'agent\n')
            closeSync(fd)
          }, 300)
        }
      }
    })
    expect(readFileSync(f, 'utf8')).toBe(content + 'agent\nmine\n')
    await only(dir, 'a.md')
  })

  it('refuses a freshly emptied file that stays empty: nothing written', async () => {
    const { dir, f, opts } = file('')
    await expect(safeEdit(f, addOnce('mine\n'), { ...opts, timeoutMs: 300 })).rejects.toThrow(
      /^a\.md is empty \(changed 0\.\d s ago\): an agent may be rewriting it; nothing written/
    )
    expect(readFileSync(f, 'utf8')).toBe('')
    await only(dir, 'a.md')
  })

  it('an empty file left alone for 5 s is a valid base', async () => {
    const { f, opts } = file('')
    const old = new Date(Date.now() - 6000)
    utimesSync(f, old, old)
    await safeEdit(f, addOnce('mine\n'), opts)
    expect(readFileSync(f, 'utf8')).toBe('mine\n')
  })

  it('a file shorter than last seen waits until it settles (3 s), or refuses', async () => {
    const { f, opts } = file('short\n')
    await expect(safeEdit(f, addOnce('mine\n'), { ...opts, sizeHint: 5000, timeoutMs: 300 })).rejects.toThrow(
      /a\.md shrank from 5000 to 6 bytes 0\.\d s ago: an agent may be rewriting it; nothing written/
    )
    expect(readFileSync(f, 'utf8')).toBe('short\n')
    const t = performance.now()
    await safeEdit(f, addOnce('mine\n'), { ...opts, sizeHint: 5000 })
    expect(performance.now() - t).toBeGreaterThan(500)
    expect(readFileSync(f, 'utf8')).toBe('short\nmine\n')
  })
})

describe('safeEdit: a fleet scan between the halves of a truncating write', () => {
  it('the half it saw (ending on a whole line) is no base: the edit waits for the rest', async () => {
    const root = tmpDir()
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join('')
    const full = `<!-- L0: v1.0 | build | scan -->\n# Build\n${lines}`
    const { mkdirSync } = await import('node:fs')
    mkdirSync(join(root, '.muse'))
    const f = join(root, '.muse', 'build.md')
    writeFileSync(f, full)
    const project = { name: 'p', path: root, key: 'P', addedAt: new Date().toISOString() }
    await scanProjects([project], new RoleCache())
    // the agent truncates and writes its first half, which ends on a whole line, then stalls
    const half = full.slice(0, full.indexOf('line 20\n'))
    const fd = openSync(f, 'r+')
    ftruncateSync(fd, 0)
    writeSync(fd, half, 0)
    // the scan a send runs first sees the half-written file
    await scanProjects([project], new RoleCache())
    setTimeout(() => {
      writeSync(fd, full.slice(half.length) + 'agent line\n', half.length)
      closeSync(fd)
    }, 600)
    await safeEdit(f, addOnce('mine\n'), { within: root })
    expect(readFileSync(f, 'utf8')).toBe(full + 'agent line\nmine\n')
    await lateWritesSettled()
  })
})

describe('safeEdit: links and leftovers', () => {
  it('writes through a link that stays inside the project; refuses one that leaves it', async () => {
    const root = tmpDir()
    const outside = tmpDir()
    writeFileSync(join(root, 'real.md'), 'in\n')
    writeFileSync(join(outside, 'far.md'), 'out\n')
    const { symlinkSync, lstatSync } = await import('node:fs')
    symlinkSync(join(root, 'real.md'), join(root, 'near.md'))
    symlinkSync(join(outside, 'far.md'), join(root, 'far.md'))
    await safeEdit(join(root, 'near.md'), addOnce('mine\n'), { within: root })
    expect(lstatSync(join(root, 'near.md')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(root, 'real.md'), 'utf8')).toBe('in\nmine\n')
    await expect(safeEdit(join(root, 'far.md'), addOnce('mine\n'), { within: root })).rejects.toMatchObject({
      code: 'forbidden',
      message: `far.md resolves to ${join(outside, 'far.md')}, outside the project: Muster reads it but never writes through a link that leaves the project`
    })
    expect(readFileSync(join(outside, 'far.md'), 'utf8')).toBe('out\n')
  })

  it('cleans up after a crashed edit: temp files go, aside copies go only when nothing of theirs is missing', async () => {
    const { dir, f, opts } = file('one\ntwo\n')
    const dead = 2 ** 22 + 12345 // above pid_max on Linux: no such process
    writeFileSync(join(dir, `.a.md.muster-${dead}-0a0b0c0d.tmp`), 'whatever\n')
    writeFileSync(join(dir, `.a.md.muster-aside-${dead}-00000001`), 'one\n')
    writeFileSync(join(dir, `.a.md.muster-aside-${dead}-00000002`), 'one\nonly here\n')
    linkSync(f, join(dir, `.a.md.muster-aside-${process.pid}-00000003`)) // a live process's: untouched
    await safeEdit(f, addOnce('mine\n'), opts)
    await only(dir, 'a.md', `.a.md.muster-aside-${dead}-00000002`, `.a.md.muster-aside-${process.pid}-00000003`)
  })
})

describe('safeEdit: failing after writing says what is on disk', () => {
  it('an agent empties the file after the edit landed and holds it: the error says the edit was written and is gone now', async () => {
    const { dir, f, opts } = file('# L0\none\n')
    let fd = -1
    const err: Error = await safeEdit(f, addOnce('mine\n'), {
      ...opts,
      timeoutMs: 400,
      hooks: { afterInstall: (p, a) => void (a === 1 && (fd = openSync(p, 'w'))) }
    }).then(
      () => new Error('no error'),
      (e: Error) => e
    )
    // on a busy machine the deadline may pass before the emptied file is read again: then it "kept
    // changing", and the replaced version, changed less than a quiet window ago, is kept beside it
    expect(err.message).toMatch(
      /^a\.md (is empty \(changed \d+\.\d s ago\): an agent may be rewriting it;|kept changing while Muster was editing it \(0 s\):) Muster's edit was written, but the file changed since and does not hold it now(; copies holding other writers' bytes are kept beside it as \.a\.md\.muster-aside-[\w-]+)?; try again$/
    )
    closeSync(fd)
    const kept = /kept beside it as (\S+); try again$/.exec(err.message)?.[1]
    if (kept) expect(readFileSync(join(dir, kept), 'utf8')).toBe('# L0\none\n')
    await only(dir, 'a.md', ...(kept ? [kept] : []))
  })
})

describe('safeEdit: the guard after the edit returned', () => {
  it('an agent renaming in a file built from a read older than the edit: the edit is applied again, its line kept', async () => {
    const { dir, f, opts } = file('# L0\none\n')
    const read = readFileSync(f, 'utf8')
    await safeEdit(f, addOnce('mine\n'), { ...opts, guard: true })
    await sleep(300) // past the quiet window: the edit has returned and nothing else watches
    writeFileSync(join(dir, 'agent.tmp'), read + 'agent line\n')
    renameSync(join(dir, 'agent.tmp'), f)
    await only(dir, 'a.md')
    expect(readFileSync(f, 'utf8')).toBe('# L0\none\nagent line\nmine\n')
  })

  it('an edit that cannot be applied again is kept beside the file as a lost copy, which lint lists', async () => {
    const { dir, f, opts } = file('# L0\none\n')
    await safeEdit(f, addOnce('mine\n'), { ...opts, guard: true })
    await sleep(300)
    writeFileSync(join(dir, 'agent.tmp'), '# L0\none\nagent line\n', { mode: 0o444 })
    renameSync(join(dir, 'agent.tmp'), f) // read-only: Muster refuses to write it
    await lateWritesSettled()
    const lost = readdirSync(dir).filter((n) => n.includes('.muster-lost-'))
    expect(lost).toHaveLength(1)
    expect(readFileSync(join(dir, lost[0]!), 'utf8')).toBe('# L0\none\nmine\n')
    expect((await deadLeftovers(dir)).map((l) => l.kind)).toEqual(['lost'])
  })
})
