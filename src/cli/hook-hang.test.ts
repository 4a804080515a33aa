/**
 * The real `muster approve-hook` process against a hub server that accepts connections and never
 * answers (issue 23, point 4): each call has a 3 s connect and read timeout, so the harness gets
 * its answer (`ask`, with the reason on stderr) instead of waiting 35 s per tool call.
 */
import { spawn } from 'node:child_process'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from '../../test/helpers/built-cli'
import { tmpDir } from '../../test/helpers/tmp'

let bin: string
beforeAll(() => {
  bin = builtCli()
}, 240_000)

describe('approve-hook against a hub server that hangs', () => {
  it('answers ask with the reason, without waiting for the server', async () => {
    const sockets: Socket[] = []
    const hang = createServer((s) => sockets.push(s))
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()))
    const url = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`
    try {
      const proc = spawn(process.execPath, [bin, 'approve-hook', '--home', join(tmpDir(), 'home'), '--hub', url, '--agent', 'lab-claude'], {
        env: { ...process.env, MUSTER_HOME: '' }
      })
      let out = ''
      let err = ''
      proc.stdout.on('data', (d: Buffer) => (out += d))
      proc.stderr.on('data', (d: Buffer) => (err += d))
      proc.stdin.end(
        JSON.stringify({ session_id: 's', cwd: '/w', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })
      )
      const code = await new Promise<number | null>((r) => proc.on('close', r))
      expect(code, err).toBe(0)
      expect(JSON.parse(out).hookSpecificOutput).toMatchObject({ permissionDecision: 'ask' })
      expect(err).toMatch(/cannot ask the operator \(.*no answer \(timed out\).*\); the harness asks instead/)
      expect(sockets.length).toBeGreaterThan(0)
    } finally {
      for (const s of sockets) s.destroy()
      await new Promise((r) => hang.close(() => r(null)))
    }
  }, 120_000)
})
