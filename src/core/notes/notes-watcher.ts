/**
 * Live notes: watches each read repository's refs (`refs/notes/**`, `refs/heads/**` since merges
 * change what is promotable, and `packed-refs`) and reports a debounced change per project. Git
 * writes a ref through `<ref>.lock` + rename, fetches may rewrite `packed-refs`: any of these means
 * "read the notes again". One chokidar instance serves every repository.
 */
import { watch, type FSWatcher } from 'chokidar'
import { join, relative, sep } from 'node:path'

/** Delay that gathers one git command's ref updates into one report. */
const DEBOUNCE_MS = 100

/** Interval of the check that a newly added repository's refs are watched. */
const SETTLE_POLL_MS = 100

/** Gives up waiting for a repository's watch after this long (it vanished, or the watcher was closed). */
const SETTLE_LIMIT_MS = 120_000

interface Watched {
  projects: Set<string>
  timer: NodeJS.Timeout | null
}

/** Watches git folders and calls `onChange(project)` when a project's refs move. */
export class NotesWatcher {
  private readonly watcher: FSWatcher
  /** By git common dir. */
  private readonly repos = new Map<string, Watched>()
  private readonly ready: Promise<void>

  constructor(private readonly onChange: (project: string) => void) {
    this.watcher = watch([], { ignoreInitial: true, persistent: true, ignored: (p) => !this.relevant(p) })
    this.ready = new Promise((resolve) => this.watcher.once('ready', () => resolve()))
    this.watcher.on('all', (_e, p) => this.onEvent(p))
    this.watcher.on('error', () => undefined) // a repository vanishing must not crash the service
  }

  /** Resolves once the initial scan is done (tests). */
  whenReady(): Promise<void> {
    return this.ready
  }

  /** Watches `commonDir` (a repository's git folder) for `project`. */
  add(project: string, commonDir: string): void {
    const w = this.repos.get(commonDir)
    if (w) return void w.projects.add(project)
    this.repos.set(commonDir, { projects: new Set([project]), timer: null })
    this.watcher.add(commonDir)
    this.reportOnceWatched(commonDir)
  }

  /**
   * A read that caused `add` predates the watch, and chokidar sets a watch up asynchronously (a
   * busy machine takes seconds): a ref moved in between would leave the read stale for good. So
   * once the repository's `refs` is watched and the watched set stopped growing, its projects are
   * reported changed once, which makes the next list read afresh.
   */
  private reportOnceWatched(commonDir: string): void {
    const refs = join(commonDir, 'refs')
    const started = Date.now()
    let last = -1
    const check = (): void => {
      const w = this.repos.get(commonDir)
      if (!w || Date.now() - started > SETTLE_LIMIT_MS) return
      const watched = this.watcher.getWatched()
      const size = Object.keys(watched).length
      if (refs in watched && size === last) return this.report(w)
      last = size
      setTimeout(check, SETTLE_POLL_MS).unref()
    }
    setTimeout(check, SETTLE_POLL_MS).unref()
  }

  /** True when `project` is watched already. */
  has(project: string): boolean {
    return [...this.repos.values()].some((w) => w.projects.has(project))
  }

  /** Stops watching everything. */
  async close(): Promise<void> {
    for (const w of this.repos.values()) if (w.timer) clearTimeout(w.timer)
    this.repos.clear()
    await this.watcher.close()
  }

  private relevant(path: string): boolean {
    for (const dir of this.repos.keys()) {
      if (path === dir) return true
      if (!path.startsWith(dir + sep)) continue
      const rel = relative(dir, path).split(sep)
      if (rel.length === 1) return rel[0] === 'refs' || rel[0] === 'packed-refs'
      return rel[0] === 'refs' && (rel[1] === 'notes' || rel[1] === 'heads')
    }
    return false
  }

  private onEvent(path: string): void {
    for (const [dir, w] of this.repos) {
      if (path !== join(dir, 'packed-refs') && !path.startsWith(join(dir, 'refs') + sep)) continue
      this.report(w)
    }
  }

  /** Reports `w`'s projects changed after the debounce (once for a burst). */
  private report(w: Watched): void {
    if (w.timer) return
    w.timer = setTimeout(() => {
      w.timer = null
      for (const p of w.projects) this.onChange(p)
    }, DEBOUNCE_MS)
  }
}
