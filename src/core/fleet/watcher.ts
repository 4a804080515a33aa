/**
 * Watches every registered project's `.muse/` and `memory/` folders and reports debounced change
 * bursts per project. One chokidar instance serves all projects. Each project root is watched
 * (so a `.muse/` created or deleted later is seen), filtered down to the files that matter; its
 * parent is watched too, filtered to the root, so the project folder itself vanishing is reported.
 */
import { watch, type FSWatcher } from 'chokidar'
import { dirname, relative, sep } from 'node:path'

/** A burst of changes in one project. */
export interface ProjectChange {
  project: string
  /** Paths relative to the project root (`.muse/build.md`), or `.` for the root itself. */
  paths: string[]
}

/** Options for the fleet watcher. */
export interface FleetWatcherOptions {
  debounceMs: number
  onChange: (change: ProjectChange) => void
  onError?: (err: Error) => void
}

interface Watched {
  name: string
  root: string
  timer: NodeJS.Timeout | null
  /** Until when further changes wait for the trailing edge (ms since epoch). */
  coolUntil: number
  pending: Set<string>
}

/** Project-root files that matter: long-term memory and the agents' instructions. */
const ROOT_FILES = new Set(['MEMORIES.md', 'CLAUDE.md', 'USER.md'])

/** Delay before reporting the first change of a quiet project: gathers one save's events. */
const LEADING_MS = 8

/** Debounced watcher of all registered projects. */
export class FleetWatcher {
  private readonly watcher: FSWatcher
  private readonly projects = new Map<string, Watched>()
  private readonly ready: Promise<void>

  constructor(private readonly opts: FleetWatcherOptions) {
    this.watcher = watch([], {
      ignoreInitial: true,
      atomic: true,
      persistent: true,
      ignored: (path) => !this.isRelevant(path)
    })
    this.ready = new Promise((resolve) => this.watcher.once('ready', () => resolve()))
    this.watcher.on('all', (_event, path) => this.onEvent(path))
    this.watcher.on('error', (err) => this.opts.onError?.(err instanceof Error ? err : new Error(String(err))))
  }

  /** Resolves once the initial scan of the watched paths is done. */
  whenReady(): Promise<void> {
    return this.ready
  }

  /** Replaces the watched set with exactly these projects. */
  sync(projects: { name: string; path: string }[]): void {
    const wanted = new Map(projects.map((p) => [p.path, p.name]))
    for (const [root, w] of this.projects) {
      if (wanted.get(root) !== w.name) {
        if (w.timer) clearTimeout(w.timer)
        this.projects.delete(root)
        this.watcher.unwatch([root, dirname(root)])
      }
    }
    for (const [root, name] of wanted) {
      if (this.projects.has(root)) continue
      this.projects.set(root, { name, root, timer: null, coolUntil: 0, pending: new Set() })
      this.watcher.add([root, dirname(root)])
    }
  }

  /** Stops watching everything. */
  async close(): Promise<void> {
    for (const w of this.projects.values()) if (w.timer) clearTimeout(w.timer)
    this.projects.clear()
    await this.watcher.close()
  }

  /** True for paths the watcher should descend into or report. */
  private isRelevant(path: string): boolean {
    for (const root of this.projects.keys()) {
      if (path === root || path === dirname(root)) return true
      if (!path.startsWith(root + sep)) continue
      const rel = relative(root, path).split(sep)
      const top = rel[0]!
      if (rel.length === 1) return top === '.muse' || top === 'memory' || ROOT_FILES.has(top)
      if (top !== '.muse' && top !== 'memory') return false
      // Only direct children: role files, daily logs, MEMORIES-like files, and the archive folder.
      return rel.length === 2
    }
    return false
  }

  private onEvent(path: string): void {
    for (const w of this.projects.values()) {
      let rel: string | null = null
      if (path === w.root) rel = '.'
      else if (path.startsWith(w.root + sep)) rel = relative(w.root, path).split(sep).join('/')
      if (rel === null) continue
      w.pending.add(rel)
      this.schedule(w)
    }
  }

  /**
   * Leading edge plus trailing edge: the first change of a quiet project is reported after
   * LEADING_MS (enough to gather the events of one save), later ones at most once per debounce
   * window. One edit reaches the screen fast; an agent rewriting a file in bursts costs few refreshes.
   */
  private schedule(w: Watched): void {
    if (w.timer) return
    const wait = Math.max(LEADING_MS, w.coolUntil - Date.now())
    w.timer = setTimeout(() => this.flush(w), wait)
  }

  private flush(w: Watched): void {
    w.timer = null
    if (w.pending.size === 0) return
    const paths = [...w.pending].sort()
    w.pending.clear()
    w.coolUntil = Date.now() + this.opts.debounceMs
    if (this.projects.get(w.root) === w) this.opts.onChange({ project: w.name, paths })
  }
}
