/**
 * OpenCode asks through its server, not a hook command: a `permission.asked` event
 * (`id`, `sessionID`, `permission`, `patterns`, `metadata`, `always`, `tool`), answered with
 * `POST /permission/:id/reply` `{reply: "once" | "always" | "reject", message?}` ("always" makes
 * OpenCode remember its `always` patterns for the session: Muster sends it only when they are the
 * call itself, see `native-grant.ts`). Muster's
 * OpenCode plugin (its source is below) hands each asked event to `muster approve-hook --harness
 * opencode` on stdin and sends back the `reply` it prints; `null` leaves the question to
 * OpenCode's own prompt. A hook that fails or prints nothing usable rejects (fail closed).
 * Install: the plugin file `~/.config/opencode/plugin/muster-approvals.js`, Muster's own (marked
 * on its first line): install writes it whole, uninstall removes it.
 * `opencode run` answers every `permission.asked` itself at once (reject; `--auto`: once) before
 * the plugin's hook can ask anyone: the plugin sees OpenCode's `permission.replied` for a
 * permission its hook still waits on, signals the hook (SIGUSR2 reject, SIGALRM allow), which
 * records the request as not delivered, and replies nothing. So `run` cannot be gated, and no
 * operator decision is ever recorded for a call nobody was waiting on.
 */
import { opencodeAlwaysIsExact } from '../../../shared/approvals/native-grant'
import { Harness } from '../../../shared/contract/hub-vocabulary'
import { HookInputError, line, optText, type HarnessAdapter, type HookReply } from './types'

/** The properties of OpenCode's `permission.asked` event (or the event itself). */
function propsOf(o: Record<string, unknown>): Record<string, unknown> {
  const p = o.type === 'permission.asked' ? o.properties : o
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw new HookInputError('OpenCode permission.asked event has no properties')
  return p as Record<string, unknown>
}

const reject = (reason: string): HookReply => ({ stdout: line({ reply: 'reject', message: reason }), exitCode: 0 })

/** The first line of the plugin file: how Muster knows the file is its own. */
export const PLUGIN_MARK = '// muster-approvals: written by `muster approve-hook install --harness opencode`; do not edit'

/** The plugin's source for one command line (the hook command, run through `sh -c`). */
export function opencodePluginSource(command: string, timeoutSec: number): string {
  return `${PLUGIN_MARK}
import { spawn } from 'node:child_process'

const COMMAND = ${JSON.stringify(command)}
const TIMEOUT_MS = ${timeoutSec * 1000}
/** The hooks still waiting for the operator, by permission id. */
const waiting = new Map()
/** The permissions OpenCode answered itself while Muster's hook waited (\`opencode run\`): never replied to. */
const answeredItself = new Set()

/** Signals the hook and the shell that runs it (their own process group). */
function signal(child, name) {
  try {
    process.kill(-child.pid, name)
  } catch {
    try {
      child.kill(name)
    } catch {}
  }
}

/** Runs Muster's hook with the event on stdin; its JSON answer, or a reject when it fails. */
function ask(event) {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', COMMAND], { stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    const id = event.properties.id
    waiting.set(id, child)
    let out = ''
    let err = ''
    const timer = setTimeout(() => signal(child, 'SIGTERM'), TIMEOUT_MS)
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('error', (e) => resolve({ reply: 'reject', message: 'Muster approvals could not run: ' + e.message }))
    child.on('close', (code) => {
      clearTimeout(timer)
      if (waiting.get(id) === child) waiting.delete(id)
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
    if (event.type === 'permission.replied') {
      // OpenCode answered a permission Muster's hook still waits on (\`opencode run\` rejects every
      // one at once, \`--auto\` approves it; or a person at OpenCode's prompt): the hook records the
      // request as not delivered (SIGUSR2 a reject, SIGALRM an approval) and nothing is replied
      const child = waiting.get(event.properties.requestID)
      if (!child) return
      waiting.delete(event.properties.requestID)
      answeredItself.add(event.properties.requestID)
      signal(child, event.properties.reply === 'reject' ? 'SIGUSR2' : 'SIGALRM')
      return
    }
    if (event.type !== 'permission.asked') return
    const answer = await ask({ ...event, directory })
    if (answeredItself.delete(event.properties.id) || answer.reply === null) return
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

/** OpenCode. */
export const opencode: HarnessAdapter = {
  id: Harness.opencode,
  name: 'opencode',
  label: 'OpenCode',
  recognizes: (o) => o.type === 'permission.asked',
  parse: (o) => {
    const p = propsOf(o)
    const permission = p.permission
    if (typeof permission !== 'string' || permission.trim() === '') throw new HookInputError('OpenCode permission.asked has no permission')
    const patterns = Array.isArray(p.patterns) ? p.patterns.filter((x): x is string => typeof x === 'string') : []
    const metadata =
      p.metadata && typeof p.metadata === 'object' && !Array.isArray(p.metadata) ? (p.metadata as Record<string, unknown>) : {}
    const tool = p.tool && typeof p.tool === 'object' ? (p.tool as Record<string, unknown>) : {}
    // a shell call reads as one: OpenCode's bash permission carries the command as its pattern
    const input =
      permission === 'bash'
        ? { command: typeof metadata.command === 'string' ? metadata.command : patterns.join(' && '), ...metadata }
        : { patterns, ...metadata }
    return {
      harness: Harness.opencode,
      event: 'permission.asked',
      tool_name: permission,
      tool_input: input,
      session_id: optText(p, 'sessionID'),
      cwd: typeof o.directory === 'string' ? o.directory : null,
      tool_use_id: typeof tool.callID === 'string' ? tool.callID : optText(p, 'id'),
      transcript_path: null,
      suggestions: Array.isArray(p.always) ? (p.always as unknown[]) : null,
      ...(Array.isArray(p.always) ? { harness_always: p.always.filter((x): x is string => typeof x === 'string').slice(0, 16) } : {})
    }
  },
  // "always" only where what OpenCode would remember is this call exactly (its usual `npm test *` is not)
  answer: (call, verdict, reason, extras) =>
    verdict === 'ask'
      ? { stdout: line({ reply: null }), exitCode: 0 }
      : verdict === 'deny'
        ? reject(reason)
        : { stdout: line({ reply: extras?.always && opencodeAlwaysIsExact(call.harness_always, call) ? 'always' : 'once' }), exitCode: 0 },
  refuse: (reason) => reject(reason),
  answeredItself: (answer) =>
    answer === 'allow'
      ? 'OpenCode approved this permission itself before anyone answered here (`opencode run --auto` approves every one), so the call ran without you'
      : 'OpenCode rejected this permission itself before anyone answered here (`opencode run` rejects every one at once: it cannot be gated; use the TUI or `opencode serve`), or someone answered it at OpenCode’s own prompt',
  settings: { under: 'home', path: ['.config', 'opencode', 'plugin', 'muster-approvals.js'] },
  gate: {
    events: ['permission.asked'],
    defaultEvents: ['permission.asked'],
    what: {
      'permission.asked': 'every permission OpenCode asks for (its `permission` config decides which ask); answered once, always or reject'
    },
    plugin: { mark: PLUGIN_MARK, source: opencodePluginSource },
    notes: () => [
      '`opencode run` cannot be gated: it rejects every permission itself at once (with --auto it approves them) before Muster can ask you; such a request is recorded as not delivered. Gate OpenCode through its TUI or `opencode serve`'
    ]
  },
  faults: {
    'hub-unreachable': { outcome: 'blocked', how: 'Muster answers nothing and OpenCode asks you' },
    'build-missing': { outcome: 'blocked', how: 'the plugin rejects when the hook cannot run' },
    'hook-crash': { outcome: 'blocked', how: 'the plugin rejects when the hook fails' },
    'hook-timeout': { outcome: 'blocked', how: 'the plugin stops the hook and rejects' },
    untrusted: { outcome: 'n/a', how: 'OpenCode loads every plugin in its plugin folder' },
    'bad-input': { outcome: 'blocked', how: 'rejected with the reason; nothing recorded' }
  },
  trust: { kind: 'none', how: 'every plugin in the plugin folder loads' },
  versions: { bin: 'opencode', args: ['--version'], tested: '1.18.33' },
  noUsage: 'OpenCode’s usage records are not read yet'
}
