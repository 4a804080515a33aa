/**
 * A locked hub must not freeze `muster serve`: another process holds the hub's write lock
 * (`BEGIN EXCLUSIVE`, 15 s, test/hub_lock.py) while the dashboard sends one `hub.append`; the
 * append waits MemPalace's 10 s and is refused, and meanwhile `app.info` is called every 20 ms
 * over HTTP. The figure is `app.info`'s p95 during the wait.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { median, percentile, type Figure } from './report'

/** Starts `muster serve` on `home`; resolves with its base URL and token. */
function serve(bin: string, home: string): Promise<{ base: string; token: string; stop: () => void }> {
  const proc = spawn(process.execPath, [bin, 'serve', '--home', home, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /"url":\s*"([^"?]+)\?token=([^"]+)"/.exec(out)
      if (m) resolve({ base: m[1]!.replace(/\/$/, ''), token: m[2]!, stop: () => proc.kill('SIGTERM') })
    })
    proc.once('exit', (code) => reject(new Error(`muster serve exited with ${code}`)))
  })
}

/** `app.info` p95 while a `hub.append` waits on a hub locked by another process. */
export async function hubLockFigures(root: string, home: string, hub: string, palace: string): Promise<Figure[]> {
  const server = await serve(join(root, 'bin', 'muster.cjs'), home)
  const call = async (method: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${server.base}/api/call/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body)
    })
    return { status: res.status, json: (await res.json()) as Record<string, unknown> }
  }
  const holder = spawn('python3', [join(root, 'test', 'hub_lock.py'), palace, '15000'], { stdio: ['pipe', 'pipe', 'inherit'] })
  try {
    const tip = async (): Promise<unknown> =>
      ((await call('hub.list', { hub, order: 'desc', limit: 1 })).json.events as { id: string }[])[0]?.id
    const before = await tip()
    await call('app.info', {})
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve())
      holder.once('exit', (code) => reject(new Error(`lock holder exited ${code}`)))
    })
    const t0 = performance.now()
    let settled = false
    const append = call('hub.append', {
      hub,
      type: 'chat.message',
      stream: 'project/bench',
      room: 'rooms',
      body: 'written while locked'
    }).finally(() => {
      settled = true
    })
    const latencies: number[] = []
    while (!settled) {
      const t = performance.now()
      await call('app.info', {})
      latencies.push(performance.now() - t)
      await new Promise((r) => setTimeout(r, 20))
    }
    const waited = performance.now() - t0
    const refused = await append
    const message = String(refused.json.error ?? '')
    if (refused.status === 200 || !message.startsWith('hub is locked'))
      throw new Error(`the append on a locked hub was not refused as locked: ${refused.status} ${message}`)
    if ((await tip()) !== before) throw new Error('the refused append changed the hub')
    return [
      {
        name: 'app.info p95 while a hub.append waits on a locked hub (other process: BEGIN EXCLUSIVE)',
        value: percentile(latencies, 95),
        runs: latencies,
        unit: 'ms',
        budget: 50,
        note: `${latencies.length} calls, median ${median(latencies).toFixed(1)} ms; append refused after ${(waited / 1000).toFixed(1)} s, nothing written`
      }
    ]
  } finally {
    holder.kill()
    server.stop()
  }
}
