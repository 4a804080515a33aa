/**
 * The real OpenCode CLI for the approvals e2e (npm `opencode-ai` in the test-only `.cache/opencode/`,
 * filled by `.ci/run`): a user home of its own whose `~/.config/opencode/` already holds the plugin
 * SDK OpenCode would otherwise fetch from the npm registry before it answers a session (the warmed
 * `.cache/opencode-config/`, linked in), a project whose `opencode.json` names an
 * `@ai-sdk/openai-compatible` provider at a Chat Completions stand-in on 127.0.0.1, `opencode serve`
 * (what OpenCode's TUI talks to) on a free port, and its HTTP API: sessions, prompts, permissions.
 * A small capture plugin beside Muster's keeps every `permission.*` event OpenCode hands its plugins.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { harnessCli, startHarness, type HarnessRun } from './harness-run'

/** The OpenCode CLI `.ci/run` installs. */
export const OPENCODE = harnessCli('opencode', 'node_modules', '.bin', 'opencode')
/** OpenCode's config folder dependencies (`@opencode-ai/plugin` at OpenCode's version), warmed by `.ci/run`. */
export const OPENCODE_DEPS = harnessCli('opencode-config')
/** Whether both are there. */
export const openCodeReady = (): boolean =>
  existsSync(OPENCODE) && existsSync(join(OPENCODE_DEPS, 'node_modules', '@opencode-ai', 'plugin', 'package.json'))

/** The provider and model the project's config names. */
export const MODEL = { providerID: 'standin', modelID: 'gpt-4.1' } as const

/** The capture plugin: appends each `permission.*` event OpenCode hands a plugin to `file`, one JSON a line. */
const capturePlugin = (file: string): string => `import { appendFileSync } from 'node:fs'
export const MusterE2eCapture = async () => ({
  event: async ({ event }) => {
    if (event.type.startsWith('permission.')) appendFileSync(${JSON.stringify(file)}, JSON.stringify(event) + '\\n')
  }
})
`

/** One OpenCode user: its home, its project, where its permission events are captured. */
export interface OpenCodeUser {
  home: string
  project: string
  /** OpenCode's global config folder (`~/.config/opencode`), where Muster's plugin goes by default. */
  configDir: string
  captured: string
}

/**
 * Lays out an OpenCode home (the warmed dependencies linked in, the capture plugin) and a project
 * whose config names the stand-in at `baseURL` and asks before every shell command.
 */
export function openCodeUser(workDir: string, baseURL: string): OpenCodeUser {
  const home = join(workDir, 'opencode-user')
  const project = join(workDir, 'opencode-project')
  const configDir = join(home, '.config', 'opencode')
  mkdirSync(join(configDir, 'plugin'), { recursive: true })
  mkdirSync(project, { recursive: true })
  for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(OPENCODE_DEPS, f), join(configDir, f))
  symlinkSync(join(OPENCODE_DEPS, 'node_modules'), join(configDir, 'node_modules'))
  const captured = join(workDir, 'opencode-permission-events.jsonl')
  writeFileSync(join(configDir, 'plugin', 'e2e-capture.js'), capturePlugin(captured))
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      [MODEL.providerID]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Chat Completions stand-in',
        options: { baseURL, apiKey: 'sk-test-muster' },
        models: { [MODEL.modelID]: { name: MODEL.modelID } }
      }
    },
    model: `${MODEL.providerID}/${MODEL.modelID}`,
    small_model: `${MODEL.providerID}/${MODEL.modelID}`,
    permission: { bash: 'ask' },
    autoupdate: false,
    share: 'disabled'
  }
  writeFileSync(join(project, 'opencode.json'), JSON.stringify(config, null, 2) + '\n')
  return { home, project, configDir, captured }
}

/** The `permission.*` events captured so far. */
export function capturedEvents(user: OpenCodeUser): { id: string; type: string; properties: Record<string, unknown> }[] {
  if (!existsSync(user.captured)) return []
  return readFileSync(user.captured, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; type: string; properties: Record<string, unknown> })
}

/** OpenCode's environment: the test's home, nothing fetched that the test does not need. */
export function openCodeEnv(user: OpenCodeUser): NodeJS.ProcessEnv {
  return {
    HOME: user.home,
    OPENCODE_DISABLE_MODELS_FETCH: 'true',
    OPENCODE_DISABLE_AUTOUPDATE: 'true',
    OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
    OPENCODE_DISABLE_CLAUDE_CODE: 'true'
  }
}

/** A free TCP port on 127.0.0.1 (`opencode serve --port 0` takes 4096 when it is free: another test's). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

/** A running `opencode serve` and its API. */
export interface OpenCodeServer {
  run: HarnessRun
  url: string
  /** Creates a session and sends it `text` (answered in the background); the session's id. */
  prompt(text: string): Promise<string>
  /** The permissions OpenCode is waiting on (its own prompt). */
  permissions(): Promise<{ id: string; permission: string; patterns: string[] }[]>
  /** Answers a permission as a person at OpenCode's own prompt would. */
  reply(id: string, reply: 'once' | 'reject', message?: string): Promise<void>
}

async function api<T>(url: string, init?: { method: string; body: unknown }): Promise<T> {
  const res = await fetch(url, {
    method: init?.method ?? 'GET',
    headers: { 'content-type': 'application/json' },
    body: init ? JSON.stringify(init.body) : undefined
  })
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`)
  const text = await res.text()
  return (text ? JSON.parse(text) : null) as T
}

/** Starts `opencode serve` in the user's project and resolves once it listens. */
export async function startOpenCodeServe(user: OpenCodeUser): Promise<OpenCodeServer> {
  const port = await freePort()
  const run = startHarness(OPENCODE, ['serve', '--hostname', '127.0.0.1', '--port', String(port)], user.project, openCodeEnv(user))
  // a server that never listens is stopped (a test that times out here would leave it running)
  const url = await new Promise<string>((resolve, reject) => {
    const started = Date.now()
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(run.output())
      if (m) {
        clearInterval(timer)
        resolve(m[1]!.replace(/\/$/, ''))
      } else if (Date.now() - started > 120_000) {
        clearInterval(timer)
        run.kill()
        reject(new Error(`opencode serve did not listen within 120 s: ${run.output()}`))
      }
    }, 100)
    void run.done.then((r) => (clearInterval(timer), reject(new Error(`opencode serve exited ${r.code}: ${r.out}`))))
  })
  return {
    run,
    url,
    prompt: async (text) => {
      const session = await api<{ id: string }>(`${url}/session`, { method: 'POST', body: {} })
      await api(`${url}/session/${session.id}/prompt_async`, {
        method: 'POST',
        body: { parts: [{ type: 'text', text }], model: MODEL }
      })
      return session.id
    },
    permissions: () => api(`${url}/permission`),
    reply: async (id, reply, message) => {
      await api(`${url}/permission/${id}/reply`, { method: 'POST', body: message ? { reply, message } : { reply } })
    }
  }
}

/** Whether a Muster hook of `home` is running (its gate launcher in some process's command line; Linux). */
export function hookRunning(home: string): boolean {
  const launcher = join(home, 'bin', 'muster-gate.cjs')
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(launcher)) return true
    } catch {
      // gone meanwhile
    }
  }
  return false
}
