/**
 * The witness of the swap's one window where the system has no atomic exchange (design in
 * `safe-write.ts`, step 3, and its limits; an exchanged swap has no window and is not noted): an
 * agent whose rename lands between Muster's final check and Muster's own rename has its version
 * replaced, and no name of it is left to merge. Its folder's change events tell it afterwards: on
 * Linux (inotify) they come in the order the renames happened, so a rename naming the file between
 * the creation of the swap's link and the rename of Muster's new version means the path was
 * replaced in between; the final check found it unchanged, so it was in the window. Such a write
 * cannot be brought back, but it is reported (on stderr and in `replacedWrites`) instead of
 * vanishing silently. Other systems' folder events may be coalesced or reordered: there the
 * window is not watched.
 */
import { watch, type FSWatcher } from 'node:fs'
import { basename, dirname } from 'node:path'
import { pause } from './safe-write-settle'

/**
 * How long a swap's own events may take to arrive before it is not judged. They come within a
 * millisecond or two; a folder from which no event at all came (a file system without them) is
 * not watched again by this process, so no edit there waits for them twice.
 */
const EVENTS_WAIT_MS = 1000
/** Folders from which no change event came. */
const blind = new Set<string>()

/** Writes of other writers replaced in a swap's window, in this process (for tests and logs). */
export const replacedWrites: { path: string; at: string }[] = []

interface Pending {
  path: string
  /** Name of the link the swap made to the version it meant to replace. */
  aside: string
  /** Name Muster's new version was renamed from. */
  source: string
  since: number
}

/** Watches the folder of one edit's file for the duration of the edit (see the header). */
export class SwapWitness {
  private watcher: FSWatcher | null = null
  private events: string[] = []
  /** Events of any kind received so far. */
  private received = 0
  private pending: Pending[] = []

  constructor(path: string) {
    if (process.platform !== 'linux' || blind.has(dirname(path))) return
    try {
      this.watcher = watch(dirname(path), { persistent: false }, (type, name) => {
        this.received++
        if (type === 'rename' && name) this.events.push(String(name))
      })
      this.watcher.on('error', () => this.close())
    } catch {
      this.watcher = null // no watch left (inotify limits): the window goes unwatched
    }
  }

  /** Records a swap that renamed `source` over `path` after linking the old version as `aside`. */
  note(path: string, aside: string, source: string): void {
    if (this.watcher) this.pending.push({ path, aside: basename(aside), source: basename(source), since: performance.now() })
  }

  /** Judges the swaps whose events have arrived. */
  judge(): void {
    for (const p of [...this.pending]) {
      const a = this.events.indexOf(p.aside)
      const s = a < 0 ? -1 : this.events.indexOf(p.source, a + 1)
      if (s < 0) {
        if (performance.now() - p.since > EVENTS_WAIT_MS) {
          this.pending = this.pending.filter((x) => x !== p)
          if (this.received === 0) blind.add(dirname(p.path))
        }
        continue
      }
      this.pending = this.pending.filter((x) => x !== p)
      if (this.events.slice(a + 1, s).includes(basename(p.path))) report(p.path)
    }
    if (this.pending.length === 0) this.events = []
  }

  /** Waits (briefly) until every swap was judged, then stops watching. */
  async close(): Promise<void> {
    while (this.watcher && this.pending.length) {
      await pause()
      this.judge()
    }
    this.watcher?.close()
    this.watcher = null
    this.pending = []
  }
}

function report(path: string): void {
  const at = new Date().toISOString()
  replacedWrites.push({ path, at })
  process.stderr.write(
    `muster: another writer renamed its version over ${path} in the instant between Muster's last check and its own rename (${at}); that version was replaced and cannot be recovered: check the other writer's last change\n`
  )
}
