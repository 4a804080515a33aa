/**
 * Muster's OpenCode plugin: OpenCode asks for permissions through its server (a
 * `permission.asked` event, answered with `POST /permission/:id/reply`), so the plugin is a client
 * of that server. For each asked event it runs `muster approve-hook --harness opencode` with the
 * event on stdin (the one core path every harness's decisions go through) and sends back the
 * `reply` it prints: `once`, `always` or `reject` with the operator's reason. A hook that fails
 * or prints nothing usable rejects (fail closed); `reply: null` leaves the question to OpenCode.
 * The file is Muster's own (marked on its first line): install writes it, uninstall removes it.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { makeDirSync } from '../make-dir'

/** The first line of the plugin file: how Muster knows the file is its own. */
export const PLUGIN_MARK = '// muster-approvals: written by `muster approve-hook install --harness opencode`; do not edit'

/** The plugin's source for one command line (the hook command, run through `sh -c`). */
export function opencodePluginSource(command: string, timeoutSec: number): string {
  return `${PLUGIN_MARK}
import { spawn } from 'node:child_process'

const COMMAND = ${JSON.stringify(command)}
const TIMEOUT_MS = ${timeoutSec * 1000}

/** Runs Muster's hook with the event on stdin; its JSON answer, or a reject when it fails. */
function ask(event) {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', COMMAND], { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    const timer = setTimeout(() => child.kill('SIGTERM'), TIMEOUT_MS)
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', (e) => resolve({ reply: 'reject', message: 'Muster approvals could not run: ' + e.message }))
    child.on('close', (code) => {
      clearTimeout(timer)
      try {
        const answer = JSON.parse(out)
        if (answer && (answer.reply === null || ['once', 'always', 'reject'].includes(answer.reply))) return resolve(answer)
      } catch {}
      resolve({ reply: 'reject', message: (err.trim() || 'Muster approvals failed (exit ' + code + ')') + '; the call is blocked' })
    })
    child.stdin.end(JSON.stringify(event))
  })
}

export const MusterApprovals = async ({ serverUrl, directory }) => ({
  event: async ({ event }) => {
    if (event.type !== 'permission.asked') return
    const answer = await ask({ ...event, directory })
    if (answer.reply === null) return
    const url = new URL('/permission/' + encodeURIComponent(event.properties.id) + '/reply', serverUrl)
    if (directory) url.searchParams.set('directory', directory)
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(answer.message ? { reply: answer.reply, message: answer.message } : { reply: answer.reply })
    }).catch(() => {})
  }
})
`
}

/** Writes the plugin (through a temporary file and a rename); what it did. */
export function installOpencodePlugin(file: string, source: string): 'installed' | 'updated' | 'unchanged' {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : null
  if (old !== null && !old.startsWith(PLUGIN_MARK)) throw new Error(`${file} exists and is not Muster's plugin; nothing was changed`)
  if (old === source) return 'unchanged'
  makeDirSync(dirname(file))
  const tmp = `${file}.${process.pid}.muster.tmp`
  writeFileSync(tmp, source, { mode: 0o644 })
  renameSync(tmp, file)
  return old === null ? 'installed' : 'updated'
}

/** Removes Muster's plugin file (never a file that is not Muster's). */
export function uninstallOpencodePlugin(file: string): 'removed' | 'absent' {
  if (!existsSync(file)) return 'absent'
  if (!readFileSync(file, 'utf8').startsWith(PLUGIN_MARK)) throw new Error(`${file} is not Muster's plugin; nothing was changed`)
  rmSync(file)
  return 'removed'
}
