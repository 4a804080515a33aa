/**
 * The file-system calls of a fleet scan, in two flavours behind one interface: `asyncScanFs`
 * (through libuv's thread pool: the service, whose event loop must never block) and `syncScanFs`
 * (plain system calls, several times cheaper per call: only for a one-shot process with nothing
 * else to do, `muster status`, where 2,000+ `stat`s are most of the work).
 */
import { readdirSync, readFile, readFileSync, statSync, promises as fs, type Dirent, type Stats } from 'node:fs'

/** What a fleet scan asks of the file system. */
export interface ScanFs {
  stat(path: string): Promise<Stats>
  readdir(path: string): Promise<Dirent[]>
  readFile(path: string): Promise<Buffer>
}

/** Non-blocking calls (the service). */
export const asyncScanFs: ScanFs = {
  stat: (path) => fs.stat(path),
  readdir: (path) => fs.readdir(path, { withFileTypes: true }),
  // the callback API: fs.promises.readFile reads in chunks, markedly slower on many small files in Node 20
  readFile: (path) => new Promise((resolve, reject) => readFile(path, (err, buf) => (err ? reject(err) : resolve(buf))))
}

/** Blocking calls wrapped as promises (a one-shot CLI read). */
export const syncScanFs: ScanFs = {
  stat: async (path) => statSync(path),
  readdir: async (path) => readdirSync(path, { withFileTypes: true }),
  readFile: async (path) => readFileSync(path)
}

/** A `stat`'s modification time as ISO text, exactly as `stats.mtime.toISOString()` (Node rounds the ms) without building the lazy Date fields. */
export function mtimeIso(st: { mtimeMs: number }): string {
  return new Date(Math.round(st.mtimeMs)).toISOString()
}
