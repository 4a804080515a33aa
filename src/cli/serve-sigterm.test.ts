/**
 * `muster serve` stopped by SIGTERM while it writes a send into a 100 MB role file (issue 36,
 * point 4), as separate processes: the signal is sent the moment the send's temp file appears in
 * `.muse/` (a hook: the folder's change event, not a delay). Serve ends by itself (not by the test's
 * SIGKILL fallback), the send is answered (503: try again), no `.muster-*.tmp` is left, and the
 * role file is either untouched or holds the directive exactly once. How soon it ends is
 * `npm run bench`'s figure (serve shutdown), not asserted here.
 */
import { spawnSync } from 'node:child_process'
import { openSync, readdirSync, readFileSync, statSync, watch, writeSync, closeSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { callServe, startServe, stopServe } from '../../test/helpers/serve-process'
import { tmpDir, writeTree } from '../../test/helpers/tmp'

let bin: string
beforeAll(() => {
  bin = builtCli()
}, 240_000)

const TOKEN = 'serve-sigterm-token-0123456789'

/** POSTs one API call to the server. */
const call = (port: number, method: string, input: unknown) => callServe(port, TOKEN, method, input)

/** A role file of about `mb` MB: a header, an outgoing section and many plain lines. */
function bigRoleFile(path: string, mb: number): void {
  const fd = openSync(path, 'w')
  writeSync(fd, '<!-- L0: v1 | build | big -->\n# Build\n\n## 📡 战略指令队列\n\n')
  const line = 'filler line with some text to make the file large, 中文 too\n'.repeat(1000)
  const chunk = Buffer.from(line)
  for (let written = 0; written < mb * 1024 * 1024; written += chunk.length) writeSync(fd, chunk)
  closeSync(fd)
}

describe('muster serve stopped during a send into a 100 MB role file', () => {
  it('answers the send, leaves no temp file, and the file is untouched or holds the directive once', async () => {
    const home = tmpDir()
    const root = join(tmpDir(), 'p')
    writeTree(root, { '.muse/qa.md': '<!-- L0: v1 | qa | t -->\n# QA\n' })
    const role = join(root, '.muse', 'build.md')
    bigRoleFile(role, 100)
    const before = statSync(role).size
    const added = spawnSync(process.execPath, [bin, 'projects', 'add', root, '--name', 'p', '--home', home], { encoding: 'utf8' })
    expect(added.status, added.stderr).toBe(0)

    const serve = await startServe(bin, home, TOKEN)
    const { proc, port } = serve

    // the signal goes the moment the send's temp file appears beside the role file
    const sawTemp = new Promise<void>((resolve) => {
      const w = watch(join(root, '.muse'), (_kind, name) => {
        if (name && /\.muster-.*\.tmp$/.test(String(name))) {
          w.close()
          resolve()
        }
      })
    })
    const sent = call(port, 'muse.send', { project: 'p', from: 'build', to: 'QA', title: 'while stopping', body: 'b' })
    const first = await Promise.race([sawTemp.then(() => 'temp' as const), sent.then(() => 'answered' as const)])
    expect(first, 'the send was still writing when the signal went').toBe('temp')
    const code = await stopServe(serve, 60_000)
    expect(proc.signalCode, `ended by itself, not by the SIGKILL fallback: ${serve.stderr()}`).toBeNull()
    expect(code).toBe(0)

    const answer = await sent
    expect(answer.status, answer.text).toBeGreaterThan(0)
    if (answer.status !== 200) {
      expect(answer.status).toBe(503)
      expect(JSON.parse(answer.text).error).toMatch(/stopping.*try it again/)
    }
    expect(readdirSync(join(root, '.muse')).filter((n) => /\.tmp$/.test(n))).toEqual([])
    const text = readFileSync(role, 'utf8')
    const copies = text.split('📡 **S001→P/QA**: 🟡 **while stopping**').length - 1
    expect(copies).toBe(answer.status === 200 ? 1 : copies)
    expect(copies).toBeLessThanOrEqual(1)
    if (copies === 0) expect(statSync(role).size).toBe(before)
  }, 300_000)
})
