/**
 * One call of `safeEdit` (design in `safe-write.ts`): settled read, swap, merge of owed agent
 * bytes, and the watch of the versions a swap replaced, until the file holds the edit and every agent
 * byte, or time is up.
 */
import { constants as fsConstants, promises as fs } from 'node:fs'
import { basename } from 'node:path'
import { ApiError } from '../../shared/api-error'
import type { SafeEditFn, SafeEditOptions, SafeEditResult, SafeWriteHooks } from './safe-write-types'
import { EDIT_TIMEOUT_MS, noteSize, pause, quietWindow, readSettled, signature, type SettledRead } from './safe-write-settle'
import { count, startsWith, swapIn, type Captured, type SwapOutcome } from './safe-write-swap'
import { keepCopies } from './safe-write-keeper'
import { withFileLock as withLock } from './safe-write-lock'
import { SwapWitness } from './safe-write-witness'
import { tmpName } from './write-leftovers'
import { editStarted, stoppedError, tempDone, tempStarted, throwIfStopped } from './safe-write-stop'

const BOM = Buffer.from([0xef, 0xbb, 0xbf])

/**
 * Swaps that redo the edit on content an agent appended to since the read (keeping the order of
 * events); later swaps take the appended bytes along and merge them, so a fast appender cannot
 * starve an edit.
 */
const REDO_APPENDED = 3

/** Per file, what this process last installed or read settled there (see `EditSession.live`). */
const liveByPath = new Map<string, Buffer | null>()
/** Edits in progress per file (the shared knowledge is dropped when none is left). */
const active = new Map<string, number>()

/** A replaced version, reachable beside the path and watched: what we know it holds and when it last changed. */
interface Aside extends Captured {
  known: Buffer
  sig: string
  changedAt: number
}

/**
 * Agent bytes found in an aside copy that the file must hold. A file holds them when it starts
 * with `holder` (a version known to hold them: the file descends from it), or else when it has
 * them `need` times (counted in that version). Whitespace-only bytes are never judged by count.
 */
interface Owed {
  bytes: Buffer
  holder: Buffer
  need: number
  blank: boolean
}

/** One call of `safeEdit`: read, swap, merge and verify until settled or out of time. */
export class EditSession {
  private readonly hooks: SafeWriteHooks
  private readonly deadline: number
  private aside: Aside[] = []
  private owed: Owed[] = []
  private kept: string[] = []
  /** The error already says what is on disk. */
  private accounted = false
  /**
   * The bytes this process believes are at the path (last installed or settled read; null after a
   * put-back). Shared by the edits of one file in this process: a sibling's install is not an
   * agent's rewrite, and taking it for one put an agent's copy back over it, or kept it aside as a
   * conflict with the agent's line in it (the stress race of 6 sends at a time lost lines so).
   */
  private get live(): Buffer | null {
    return liveByPath.get(this.path) ?? null
  }

  private set live(bytes: Buffer | null) {
    liveByPath.set(this.path, bytes)
  }
  /** The bytes of Muster's last install. */
  private installed: Buffer | null = null
  private lastInstall = -Infinity
  private attempt = 0
  private dirty = true
  private changed = false
  private created = false
  private editPresent = false
  private text = ''
  private applied: SafeEditResult['applied'] = null
  /** Tells a write replaced in a swap's window (`safe-write-witness.ts`); made at the first swap. */
  private witness: SwapWitness | null = null
  /** Aborted when the process stops its edits (`safe-write-stop.ts`). */
  private stop: AbortSignal | undefined

  constructor(
    private readonly path: string,
    private readonly edit: (text: string) => string | null,
    private readonly opts: SafeEditOptions,
    /** `safeEdit`, for the keeper's merges of late bytes (passed in: the door imports this file). */
    private readonly reedit: SafeEditFn
  ) {
    this.hooks = opts.hooks ?? {}
    this.deadline = performance.now() + (opts.timeoutMs ?? EDIT_TIMEOUT_MS)
  }

  async run(): Promise<SafeEditResult> {
    active.set(this.path, (active.get(this.path) ?? 0) + 1)
    const stop = editStarted()
    this.stop = stop.signal
    try {
      return await this.loop()
    } catch (err) {
      await this.witness?.close()
      if (this.accounted || (!this.changed && this.aside.length === 0 && this.kept.length === 0)) throw err
      // something was written or moved: say exactly what is on disk now
      const why = (err as Error).message.replace(/[:;] (nothing written|not changed)(, try again in a few seconds)?$/, '')
      throw new ApiError(`${why}; ${await this.account()}; try again`, err instanceof ApiError ? err.code : 'internal')
    } finally {
      stop.done()
      const left = active.get(this.path)! - 1
      if (left) active.set(this.path, left)
      else {
        active.delete(this.path)
        liveByPath.delete(this.path)
      }
    }
  }

  private async loop(): Promise<SafeEditResult> {
    for (;;) {
      // a stopping process stops an edit that changed nothing yet; one that did finishes (it is short)
      if (!this.changed) throwIfStopped(this.stop, this.path)
      const now = performance.now()
      const window = quietWindow()
      const due = now - this.lastInstall >= window && this.aside.every((a) => now - a.changedAt >= window)
      if (this.dirty || due) {
        this.dirty = false
        const step = await withLock(this.path, () => this.step())
        if (step === 'clean' && due) return this.finish()
      }
      if (performance.now() > this.deadline) return this.giveUp()
      await pause()
      this.witness?.judge()
      await this.watch()
    }
  }

  /**
   * Reads the settled file and makes it hold the edit and the owed bytes: a swap when the edit is
   * missing, else an append of the owed bytes (what an appending agent does: it replaces no inode,
   * so merging can never race with a fast appender forever).
   */
  private async step(): Promise<'clean' | 'written'> {
    const base = await readSettled(this.path, {
      deadline: this.deadline,
      sizeHint: this.opts.sizeHint,
      absentOk: this.opts.create,
      ...(this.stop && !this.changed ? { signal: this.stop } : {})
    })
    if (!this.changed) throwIfStopped(this.stop, this.path)
    if (!base && !this.opts.create) {
      const what = this.changed ? 'after Muster wrote its edit' : 'while Muster was editing it: nothing written'
      throw new ApiError(
        this.attempt || this.changed ? `${this.path} was deleted ${what}` : `${this.path} does not exist`,
        this.attempt ? 'conflict' : 'not_found'
      )
    }
    const text = base ? decode(this.path, base.bytes) : ''
    // while the file still starts with what Muster installed, its edit is there: not re-applied
    const intact = !!base && !!this.installed && startsWith(base.bytes, this.installed)
    const next = intact ? null : this.edit(text)
    const have = base?.bytes ?? Buffer.alloc(0)
    if (next === null) {
      const missing = this.missingOwed(have)
      if (missing.length === 0) {
        this.live = base?.bytes ?? null
        this.text = text
        this.editPresent = true
        return 'clean'
      }
      this.editPresent = false
      return this.append(have, missing)
    }
    this.editPresent = false
    this.applied = { before: text, after: next }
    const bytes = encode(next, !!base && startsWith(base.bytes, BOM))
    const missing = this.missingOwed(bytes)
    return this.swap(base, Buffer.concat([bytes, ...missing.map((o) => o.bytes)]), missing)
  }

  /** The owed agent bytes `content` does not hold. */
  private missingOwed(content: Buffer): Owed[] {
    return this.owed.filter((o) => !startsWith(content, o.holder) && count(content, o.bytes) < o.need)
  }

  /** After owed bytes were written: `file` is now a version known to hold them. */
  private held(owed: Owed[], file: Buffer): void {
    for (const o of owed) {
      o.holder = file
      o.need = o.blank ? Infinity : count(file, o.bytes)
    }
  }

  /** Appends owed bytes to the live file (O_APPEND without O_CREAT, like an appending agent). */
  private async append(base: Buffer, owed: Owed[]): Promise<'written'> {
    let fh
    try {
      fh = await fs.open(this.path, fsConstants.O_WRONLY | fsConstants.O_APPEND)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw writeError(this.path, err)
      this.dirty = true // missing for a moment (another writer's swap): try again
      return 'written'
    }
    const chunk = Buffer.concat(owed.map((o) => o.bytes))
    try {
      await fh.writeFile(chunk)
    } finally {
      await fh.close()
    }
    // the file is `base` + these bytes, unless another appender slipped in between (then counted)
    this.held(owed, Buffer.concat([base, chunk]))
    this.lastInstall = performance.now()
    this.live = null
    return 'written'
  }

  /** Writes `bytes` to a temp file and swaps it in for `base`. */
  private async swap(base: SettledRead | null, bytes: Buffer, owed: Owed[]): Promise<'written'> {
    const mode = base?.mode ?? 0o644
    if ((mode & 0o222) === 0) throw new ApiError(`${this.path} is read-only: not changed`, 'forbidden')
    const tmp = tmpName(this.path)
    tempStarted(tmp)
    try {
      const stop = this.changed ? undefined : this.stop
      await fs.writeFile(tmp, bytes, { mode, flag: 'wx', ...(stop ? { signal: stop } : {}) })
      await fs.chmod(tmp, mode)
      this.attempt++
      await this.hooks.beforeRename?.(this.path, this.attempt)
      throwIfStopped(stop, this.path)
      this.witness ??= new SwapWitness(this.path)
      const out = swapIn(this.path, tmp, base?.bytes ?? null, {
        appended: this.attempt > REDO_APPENDED,
        carry: true,
        hook: this.hooks.inWindow,
        afterCheck: this.hooks.afterCheck,
        afterExchange: this.hooks.afterExchange
      })
      if (out.kind === 'installed' && out.how === 'rename' && out.aside[0]) this.witness?.note(this.path, out.aside[0].name, tmp)
      this.adopt(out)
      if (out.kind === 'installed') {
        // the version installed: ours, plus what another writer added meanwhile (carried in)
        if (out.carried?.length) bytes = Buffer.concat([bytes, out.carried])
        this.lastInstall = performance.now()
        this.live = bytes
        this.installed = bytes
        this.held(owed, bytes)
        this.changed = true
        this.created ||= !base
        noteSize(this.path, bytes.length)
        await this.hooks.afterInstall?.(
          this.path,
          this.attempt,
          out.aside.map((a) => a.name)
        )
      } else {
        this.dirty = true
        this.live = null
        if (out.kind === 'vanished') await pause()
      }
      return 'written'
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw stoppedError(this.path)
      throw err instanceof ApiError ? err : writeError(this.path, err)
    } finally {
      await fs.rm(tmp, { force: true })
      tempDone(tmp)
    }
  }

  /** Takes over the version a swap replaced and the agent bytes found in it. */
  private adopt(out: SwapOutcome): void {
    const now = performance.now()
    this.kept.push(...(out.displaced ?? []))
    for (const c of out.aside) this.aside.push({ ...c, known: c.bytes, sig: '', changedAt: now })
    for (const ch of out.chunks) this.owe(ch.bytes, ch.from)
  }

  /** Records agent bytes found at the end of `from` (a replaced version) as owed to the file. */
  private owe(bytes: Buffer, from: Buffer): void {
    const blank = bytes.toString('utf8').trim() === ''
    this.owed.push({ bytes: Buffer.from(bytes), holder: from, need: blank ? Infinity : count(from, bytes), blank })
    this.dirty = true
  }

  /** Polls the replaced versions: appended bytes become owed; one rewritten in place goes back to the path. */
  private async watch(): Promise<void> {
    for (const a of [...this.aside]) {
      const st = await fs.stat(a.name, { bigint: true }).catch(() => null)
      if (!st) {
        this.aside = this.aside.filter((x) => x !== a)
        continue
      }
      const sig = signature(st)
      if (sig === a.sig) continue
      a.sig = sig
      const bytes = await fs.readFile(a.name)
      if (bytes.equals(a.known)) continue
      a.changedAt = performance.now()
      if (!this.live) {
        // the path holds a version put back a moment ago: decide after a settled read of it
        a.sig = ''
        this.dirty = true
      } else if (startsWith(bytes, a.known)) {
        this.owe(bytes.subarray(a.known.length), bytes)
        a.known = bytes
      } else {
        await withLock(this.path, () => this.putBack(a))
      }
    }
  }

  /**
   * A replaced version rewritten in place (an agent had it open, truncated): it goes back to the
   * path (renamed over it through a second link), so the agent's further writes land in the live
   * file, and the edit is redone on it once it is a complete version (`readSettled`).
   */
  private async putBack(a: Aside): Promise<void> {
    const src = tmpName(this.path)
    tempStarted(src)
    await fs.link(a.name, src)
    try {
      this.witness ??= new SwapWitness(this.path)
      const out = swapIn(this.path, src, this.live, {
        appended: true,
        hook: this.hooks.inWindow,
        afterCheck: this.hooks.afterCheck,
        afterExchange: this.hooks.afterExchange
      })
      if (out.kind === 'installed' && out.how === 'rename' && out.aside[0]) this.witness?.note(this.path, out.aside[0].name, src)
      this.dirty = true
      if (out.kind === 'vanished') return
      this.aside = this.aside.filter((x) => x !== a)
      this.adopt(out)
      if (out.kind === 'installed') {
        this.live = null
        await fs.rm(a.name, { force: true })
      } else {
        // the live file was rewritten too: two writers rewrote it at once; theirs stays, this is kept
        this.kept.push(a.name)
      }
    } finally {
      await fs.rm(src, { force: true })
      tempDone(src)
    }
  }

  private async finish(): Promise<SafeEditResult> {
    this.release(this.aside)
    await this.witness?.close()
    if (this.kept.length) {
      this.accounted = true
      const edit = this.editPresent ? "Muster's edit is in the file" : "Muster's edit is not in the file"
      throw new ApiError(
        `${basename(this.path)} was rewritten by two writers at once; ${edit}; the other version is kept beside it as ${this.names(this.kept)}: merge it by hand`,
        'conflict'
      )
    }
    return { changed: this.changed, created: this.created, text: this.text, applied: this.changed ? this.applied : null }
  }

  /** Lets go of replaced versions whose bytes are accounted for: watched a while longer for late appends, then deleted. */
  private release(copies: Aside[]): void {
    keepCopies(
      copies.map((a) => ({ name: a.name, path: this.path, known: a.known })),
      this.reedit
    )
    this.aside = this.aside.filter((a) => !copies.includes(a))
  }

  private names(paths: string[]): string {
    return paths.map((k) => basename(k)).join(', ')
  }

  /**
   * Before giving up: aside copies still being written, or holding agent bytes the file lacks, are
   * kept beside the file; the others are deleted. Returns what is on disk, in words.
   */
  private async account(): Promise<string> {
    this.accounted = true
    const now = performance.now()
    const window = quietWindow()
    const current = await fs.readFile(this.path).catch(() => Buffer.alloc(0))
    const owing = this.missingOwed(current).length > 0
    if (this.opts.guardRound) {
      // a re-application the guard tries again until it lands: nothing is left beside the file for
      // it; whatever a replaced version gained since it was replaced is merged by the keeper (only
      // what the file lacks), as a late append is, and a version rewritten meanwhile stays beside
      keepCopies(
        this.aside.map((a) => ({ name: a.name, path: this.path, known: a.bytes })),
        this.reedit
      )
      this.aside = []
    }
    const keep = owing ? this.aside : this.aside.filter((a) => now - a.changedAt < window)
    this.kept.push(...keep.map((a) => a.name))
    this.release(this.aside.filter((a) => !keep.includes(a)))
    const state = this.editPresent
      ? "Muster's edit is in the file"
      : this.changed
        ? "Muster's edit was written, but the file changed since and does not hold it now"
        : 'nothing written'
    return this.kept.length ? `${state}; copies holding other writers' bytes are kept beside it as ${this.names(this.kept)}` : state
  }

  /** Out of time. */
  private async giveUp(): Promise<never> {
    const secs = ((this.opts.timeoutMs ?? EDIT_TIMEOUT_MS) / 1000).toFixed(0)
    throw new ApiError(
      `${basename(this.path)} kept changing while Muster was editing it (${secs} s): ${await this.account()}; try again`,
      'conflict'
    )
  }
}

function encode(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, 'utf8')
  return bom ? Buffer.concat([BOM, body]) : body
}

/** Decodes UTF-8 (BOM stripped), refusing files that would not survive a decode/encode round trip. */
export function decode(path: string, bytes: Buffer): string {
  const body = startsWith(bytes, BOM) ? bytes.subarray(3) : bytes
  const text = body.toString('utf8')
  if (!Buffer.from(text, 'utf8').equals(body)) throw new ApiError(`${basename(path)} is not valid UTF-8: not changed`, 'invalid_input')
  return text
}

function writeError(path: string, err: unknown): ApiError {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new ApiError(`cannot write ${path}: permission denied`, 'forbidden')
  if (code === 'ENOENT') return new ApiError(`cannot write ${path}: its folder is gone`, 'not_found')
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ApiError(`cannot write ${path}: the disk is full`, 'internal')
  return new ApiError(`cannot write ${path}: ${(err as Error).message}`, 'internal')
}
