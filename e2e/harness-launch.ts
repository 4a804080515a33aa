/**
 * How the real-harness e2e start Claude Code, Codex, Gemini CLI and Copilot CLI (each in the
 * test-only `.cache/<name>/` `.ci/run` fills) against their model stand-ins, with Muster's gate
 * installed through the built CLI. `fault`, when given, runs between the install and the start:
 * what `e2e/gate-faults.spec.ts` breaks (the hub, the build) before the harness makes its call;
 * `install` adds flags to the install (a short `--timeout-ms` nobody answers within).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AnthropicStandIn } from './anthropic-stand-in'
import type { ChatStandIn } from './chat-completions-stand-in'
import { expect, type Served } from './fixtures'
import type { GeminiStandIn } from './gemini-stand-in'
import { CLAUDE, claudeEnv, harnessCli, musterInstall, startHarness, type HarnessRun } from './harness-run'
import type { ResponsesStandIn } from './responses-stand-in'

/** The harness CLIs' entry points. */
export const CODEX = harnessCli('codex', 'node_modules', '.bin', 'codex')
export const GEMINI = harnessCli('gemini-cli', 'node_modules', '.bin', 'gemini')
export const COPILOT = harnessCli('copilot', 'node_modules', '.bin', 'copilot')
const PTY = join(import.meta.dirname, 'pty-run.py')

/** What breaks after the install, before the harness starts. */
export type Fault = (() => void) | undefined

/** The parts of a Claude settings file the tests read or change. */
export interface ClaudeSettings {
  permissions?: { allow?: string[] }
  hooks: Record<string, { hooks: { type: string; command: string; onFailure?: string }[] }[]>
}

/** How `runClaude` sets Claude Code up beyond the default install. */
export interface ClaudeRunOptions {
  /** Changes the installed settings file before the start. */
  edit?: (settings: ClaudeSettings) => void
  /** The lifecycle hooks too (`muster session-hook install`), with the receipt hooks when `'receipts'`. */
  sessions?: boolean | 'receipts'
  fault?: Fault
  /** More `approve-hook install` flags. */
  install?: readonly string[]
  /** Where Claude Code writes its debug log (`--debug-file`: each hook's command, status and stderr). */
  debugFile?: string
  /** A session that lives on between turns: prompts come as stream-json on stdin (`HarnessRun.write`). */
  stream?: boolean
}

/** Claude Code's working directory in `runClaude` (paths outside it are asked about whatever the rules say). */
export const claudeProject = (workDir: string): string => join(workDir, 'claude-code-project')

/**
 * Installs Muster's hook into a fresh Claude settings file (the installer asks this Claude Code
 * its version) and starts `claude -p` in a temporary HOME, in `claudeProject(workDir)`.
 */
export function runClaude(served: Served, workDir: string, standIn: AnthropicStandIn, opts: ClaudeRunOptions = {}): HarnessRun {
  const home = join(workDir, 'claude-home')
  const project = claudeProject(workDir)
  mkdirSync(home, { recursive: true })
  mkdirSync(project, { recursive: true })
  const settings = join(home, 'settings.json')
  musterInstall(
    served,
    [
      'approve-hook',
      'install',
      '--agent',
      'e2e-claude',
      '--settings',
      settings,
      '--project',
      'muse',
      '--claude',
      CLAUDE,
      ...(opts.install ?? [])
    ],
    { HOME: home }
  )
  const { sessions, edit } = opts
  if (sessions)
    musterInstall(
      served,
      ['session-hook', 'install', '--agent', 'e2e-claude', '--settings', settings, ...(sessions === 'receipts' ? ['--receipts'] : [])],
      { HOME: home }
    )
  if (edit) {
    const parsed = JSON.parse(readFileSync(settings, 'utf8')) as ClaudeSettings
    edit(parsed)
    writeFileSync(settings, JSON.stringify(parsed, null, 2))
  }
  opts.fault?.()
  const mode = opts.stream
    ? ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose']
    : ['Create the marker file.', '--output-format', 'json']
  return startHarness(
    CLAUDE,
    ['-p', ...mode, '--settings', settings, ...(opts.debugFile ? ['--debug-file', opts.debugFile] : [])],
    project,
    claudeEnv(home, standIn.url),
    !!opts.stream
  )
}

/** A prompt as a stream-json line for a `runClaude(…, { stream: true })` session. */
export const claudePrompt = (text: string): string =>
  JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } }) + '\n'

/** Writes Codex's config (the stand-in as its provider), installs Muster's hook, starts Codex. */
export function runCodex(
  served: Served,
  workDir: string,
  standIn: ResponsesStandIn,
  mode: 'exec' | 'interactive',
  fault?: Fault,
  install: readonly string[] = []
): HarnessRun {
  const codexHome = join(workDir, 'codex-home')
  const project = join(workDir, 'codex-project')
  mkdirSync(codexHome, { recursive: true })
  mkdirSync(project, { recursive: true })
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.1-codex"',
      'model_provider = "muster-stand-in"',
      '[model_providers.muster-stand-in]',
      'name = "Muster stand-in"',
      `base_url = "${standIn.url}"`,
      'wire_api = "responses"',
      'env_key = "MUSTER_STAND_IN_KEY"',
      `[projects."${project}"]`,
      'trust_level = "trusted"',
      ''
    ].join('\n')
  )
  const hooks = join(codexHome, 'hooks.json')
  musterInstall(served, [
    'approve-hook',
    'install',
    '--harness',
    'codex',
    '--mode',
    mode,
    '--agent',
    'e2e-codex',
    '--settings',
    hooks,
    '--project',
    'muse',
    ...install
  ])
  const event = mode === 'exec' ? 'PreToolUse' : 'PermissionRequest'
  expect(Object.keys((JSON.parse(readFileSync(hooks, 'utf8')) as { hooks: object }).hooks)).toEqual([event])
  fault?.()
  const env = { HOME: join(workDir, 'user'), CODEX_HOME: codexHome, MUSTER_STAND_IN_KEY: 'sk-test-muster' }
  // interactive: the TUI in a pseudo-terminal, asking before it runs anything outside its read-only sandbox
  return mode === 'exec'
    ? startHarness(
        CODEX,
        ['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '-s', 'danger-full-access', 'Create the marker file.'],
        project,
        env
      )
    : startHarness(
        'python3',
        [PTY, CODEX, '--dangerously-bypass-hook-trust', '-a', 'on-request', '-s', 'read-only', 'Create the marker file.'],
        project,
        { ...env, TERM: 'xterm-256color' }
      )
}

/** A Gemini home (API-key auth, the project trusted), Muster's BeforeTool hook, and `gemini -p`. */
export function runGemini(served: Served, workDir: string, standIn: GeminiStandIn, fault?: Fault): HarnessRun {
  const home = join(workDir, 'gemini-user')
  const project = join(workDir, 'gemini-project')
  mkdirSync(join(home, '.gemini'), { recursive: true })
  mkdirSync(project, { recursive: true })
  const settings = join(home, '.gemini', 'settings.json')
  writeFileSync(settings, JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2) + '\n')
  writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }))
  musterInstall(served, [
    'approve-hook',
    'install',
    '--harness',
    'gemini',
    '--agent',
    'e2e-gemini',
    '--settings',
    settings,
    '--project',
    'muse'
  ])
  fault?.()
  return startHarness(GEMINI, ['-m', 'gemini-2.5-flash', '-p', 'Create the marker file.', '--yolo'], project, {
    HOME: home,
    GEMINI_API_KEY: 'test-muster',
    GOOGLE_GEMINI_BASE_URL: standIn.url
  })
}

/** Installs Muster's gate into the project's Copilot hooks file and starts `copilot -p` there. */
export function runCopilot(served: Served, workDir: string, standIn: ChatStandIn, fault?: Fault): HarnessRun {
  const project = join(workDir, 'copilot-project')
  const home = join(workDir, 'copilot-user')
  mkdirSync(project, { recursive: true })
  mkdirSync(home, { recursive: true })
  const hooks = join(project, '.github', 'hooks', 'muster.json')
  musterInstall(served, [
    'approve-hook',
    'install',
    '--harness',
    'copilot',
    '--agent',
    'e2e-copilot',
    '--settings',
    hooks,
    '--project',
    'muse'
  ])
  expect(Object.keys((JSON.parse(readFileSync(hooks, 'utf8')) as { hooks: object }).hooks)).toEqual(['permissionRequest'])
  fault?.()
  return startHarness(COPILOT, ['-p', 'Create the marker file.', '--trust-folder', '--model', 'gpt-4.1'], project, {
    HOME: home,
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: standIn.url
  })
}
