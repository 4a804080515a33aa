/**
 * Faults (issue 36): how soon `muster serve` ends on SIGTERM while it writes a send into a 100 MB
 * role file (the promise: 2 s whatever it is doing), and how soon a hub put through a series of
 * faults (deleted, replaced, truncated, refilled, its header and pages corrupted) and then restored
 * in place from a good backup takes appends and lists again (2 s), then once more after a plain
 * delete and restore. `src/cli/serve-sigterm.test.ts` and `hub-restored.test.ts` check that both
 * happen; the times are measured here. This process is the other writer: serve is a child.
 */
import { spawnSync } from 'node:child_process'
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  renameSync,
  truncateSync,
  unlinkSync,
  watch,
  writeFileSync,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { HUB_FILENAME } from '../src/core/hub/store/schema'
import { madeHub, numberedBodies } from '../test/helpers/made-hub'
import { callServe, startServe, type ServeProcess } from '../test/helpers/serve-process'
import { median, type Figure } from './report'

const TOKEN = 'bench-faults-token-0123456789'
const ROUNDS = 3

/** A role file of about `mb` MB: a header, an outgoing section and many plain lines. */
function bigRoleFile(path: string, mb: number): void {
  const fd = openSync(path, 'w')
  writeSync(fd, '<!-- L0: v1 | build | big -->\n# Build\n\n## 📡 战略指令队列\n\n')
  const chunk = Buffer.from('filler line with some text to make the file large, 中文 too\n'.repeat(1000))
  for (let written = 0; written < mb * 1024 * 1024; written += chunk.length) writeSync(fd, chunk)
  closeSync(fd)
}

/** SIGTERM the moment a send's temp file appears beside a 100 MB role file: ms until serve has exited. */
async function shutdownDuringSend(bin: string, work: string, round: number): Promise<number> {
  const home = join(work, `faults-home-${round}`)
  const root = join(work, `faults-project-${round}`)
  mkdirSync(join(root, '.muse'), { recursive: true })
  writeFileSync(join(root, '.muse', 'qa.md'), '<!-- L0: v1 | qa | t -->\n# QA\n')
  bigRoleFile(join(root, '.muse', 'build.md'), 100)
  const added = spawnSync(process.execPath, [bin, 'projects', 'add', root, '--name', 'p', '--home', home], { encoding: 'utf8' })
  if (added.status !== 0) throw new Error(added.stderr)
  const serve = await startServe(bin, home, TOKEN)
  const sawTemp = new Promise<void>((resolve) => {
    const w = watch(join(root, '.muse'), (_kind, name) => {
      if (name && /\.muster-.*\.tmp$/.test(String(name))) {
        w.close()
        resolve()
      }
    })
  })
  const sent = callServe(serve.port, TOKEN, 'muse.send', { project: 'p', from: 'build', to: 'QA', title: `stopping ${round}`, body: 'b' })
  const first = await Promise.race([sawTemp.then(() => 'temp' as const), sent.then(() => 'answered' as const)])
  if (first !== 'temp') throw new Error('the send was answered before its temp file appeared')
  const t0 = performance.now()
  serve.proc.kill('SIGTERM')
  const fallback = setTimeout(() => serve.proc.kill('SIGKILL'), 60_000)
  await serve.exited
  const ms = performance.now() - t0
  clearTimeout(fallback)
  if (serve.proc.signalCode) throw new Error(`serve did not end by itself: ${serve.stderr()}`)
  await sent
  return ms
}

/** A complete hub file of `n` events made in its own folder of `work`. */
function madeHubIn(work: string, n: number, tag: string): string {
  const dir = join(work, `made-${tag}`)
  mkdirSync(dir, { recursive: true })
  return madeHub(dir, numberedBodies(n, tag))
}

/** Polls appends and lists until both answer 200: ms since `t0`. */
async function untilServed(serve: ServeProcess, palace: string, t0: number): Promise<number> {
  for (;;) {
    const a = await callServe(serve.port, TOKEN, 'hub.append', {
      palace,
      type: 'chat.message',
      stream: 'project/x',
      room: 'rooms',
      body: 'after'
    })
    const l = await callServe(serve.port, TOKEN, 'hub.list', { palace, order: 'asc', limit: 50 })
    if (a.status === 200 && l.status === 200) return performance.now() - t0
    if (performance.now() - t0 > 60_000) throw new Error(`hub not taken up again after 60 s: ${a.text} ${l.text}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** The hub's recovery: after the series of faults, and after a plain delete and restore. */
async function hubRecovery(bin: string, work: string): Promise<{ series: number; deleted: number }> {
  const home = join(work, 'faults-hub-home')
  const serve = await startServe(bin, home, TOKEN)
  try {
    const palace = join(work, 'faults-palace')
    const ok = await callServe(serve.port, TOKEN, 'hubs.add', { palace, create: true, name: 'h' })
    if (ok.status !== 200) throw new Error(ok.text)
    const file = join(palace, HUB_FILENAME)
    const append = (body: string) =>
      callServe(serve.port, TOKEN, 'hub.append', { palace, type: 'chat.message', stream: 'project/x', room: 'rooms', body })
    for (let i = 0; i < 40; i++) await append(`first ${i} ${'x'.repeat(300)}`)
    const backup = madeHubIn(work, 80, 'backup')
    const faults: (() => void)[] = [
      () => unlinkSync(file),
      () => {
        copyFileSync(madeHubIn(work, 50, 'replacement'), `${file}.new`)
        renameSync(`${file}.new`, file)
      },
      () => truncateSync(file, 0),
      () => copyFileSync(madeHubIn(work, 60, 'refill'), file),
      () => {
        const fd = openSync(file, 'r+')
        writeSync(fd, Buffer.from('not sqlite at all'), 0, 17, 0)
        closeSync(fd)
      },
      () => {
        const fd = openSync(file, 'r+')
        for (const p of [2, 3, 5]) writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 4096 * p)
        closeSync(fd)
      }
    ]
    for (const fault of faults) {
      fault()
      await append('during')
      await callServe(serve.port, TOKEN, 'hub.list', { palace, limit: 5 })
    }
    copyFileSync(backup, file)
    const series = await untilServed(serve, palace, performance.now())
    unlinkSync(file)
    await append('into the void')
    copyFileSync(backup, file)
    const deleted = await untilServed(serve, palace, performance.now())
    return { series, deleted }
  } finally {
    serve.proc.kill('SIGKILL')
    await serve.exited
  }
}

/** The fault figures. */
export async function faultsFigures(bin: string, work: string): Promise<Figure[]> {
  const stops: number[] = []
  for (let i = 0; i < ROUNDS; i++) stops.push(await shutdownDuringSend(bin, work, i))
  const hub = await hubRecovery(bin, work)
  return [
    {
      name: 'serve: SIGTERM to exit during a 100 MB send',
      value: median(stops),
      runs: stops,
      unit: 'ms',
      budget: 2000,
      note: `median of ${ROUNDS}; the send is answered (503: try again) and no temp file is left`
    },
    {
      name: 'hub: restored after a series of faults, served again',
      value: hub.series,
      unit: 'ms',
      budget: 2000,
      note: 'deleted, replaced, truncated, refilled, header and pages corrupted, then the backup copied back'
    },
    {
      name: 'hub: deleted and restored, served again',
      value: hub.deleted,
      unit: 'ms',
      budget: 2000,
      note: 'a new inode at the path'
    }
  ]
}
