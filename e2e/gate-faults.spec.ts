/**
 * Every fault a harness lets Muster block, run against the real CLIs: the hub gone, Muster's build
 * gone from under the gate launcher, a build that crashes while it loads, and a hook installed with
 * a short wait that nobody answers within. In each the scripted
 * model asks for one shell command that creates a marker file: the command must not run, the
 * harness must end (never hang), and the reason must reach the model. The pairs come from
 * `test/helpers/gate-faults-matrix.ts`, from which README's fault table is generated.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { startAnthropicStandIn } from './anthropic-stand-in'
import { startChatStandIn } from './chat-completions-stand-in'
import { test, expect, type Served } from './fixtures'
import { FAULT_CASES, type FaultCase } from '../test/helpers/gate-faults-matrix'
import { startGeminiStandIn } from './gemini-stand-in'
import { CODEX, COPILOT, GEMINI, runClaude, runCodex, runCopilot, runGemini } from './harness-launch'
import { CLAUDE, fleetPalace, type HarnessRun } from './harness-run'
import { startResponsesStandIn } from './responses-stand-in'

const CLI = { 'claude-code': CLAUDE, codex: CODEX, gemini: GEMINI, copilot: COPILOT } as Record<string, string>

/**
 * Points the home's gate launcher at another build, as a Muster moved or upgraded away from under
 * it leaves it (the launcher's `const BUILD = "…"` line; the harness settings stay as installed).
 */
function pointLauncherAt(served: Served, build: string): void {
  const file = join(served.home, 'bin', 'muster-gate.cjs')
  const text = readFileSync(file, 'utf8')
  expect(text, 'the install wrote the gate launcher').toMatch(/^const BUILD = ".*"$/m)
  writeFileSync(file, text.replace(/^const BUILD = ".*"$/m, `const BUILD = ${JSON.stringify(build)}`))
}

/** Breaks the gate as `fault` says, between the install and the harness's call (a timeout: nobody answers). */
function breaker(served: Served, workDir: string, fault: FaultCase['fault']): () => void {
  return () => {
    if (fault === 'hook-timeout') return
    if (fault === 'hub-unreachable') renameSync(fleetPalace(served), `${fleetPalace(served)}-moved`)
    else if (fault === 'build-missing') pointLauncherAt(served, join(workDir, 'moved', 'muster.cjs'))
    else {
      const crash = join(workDir, 'crashing-build', 'muster.cjs')
      mkdirSync(join(workDir, 'crashing-build'), { recursive: true })
      writeFileSync(crash, "throw new Error('this build is broken')\n")
      pointLauncherAt(served, crash)
    }
  }
}

/** How each harness of the matrix runs: its stand-in, the harness, and what its model was told. */
const RUNNERS: Record<
  string,
  (served: Served, workDir: string, command: string, fault: () => void, install: readonly string[]) => Promise<Ran>
> = {
  'claude-code': async (served, workDir, command, fault, install) => {
    const s = await startAnthropicStandIn(command)
    const debugFile = join(workDir, 'claude-debug.log')
    const ran = await finish(runClaude(served, workDir, s, { fault, install, debugFile }), s, () => s.toolResults)
    return { ...ran, hookLog: existsSync(debugFile) ? readFileSync(debugFile, 'utf8') : '' }
  },
  codex: async (served, workDir, command, fault, install) => {
    const s = await startResponsesStandIn(command)
    return finish(runCodex(served, workDir, s, 'exec', fault, install), s, () => s.outputs)
  },
  gemini: async (served, workDir, command, fault) => {
    const s = await startGeminiStandIn(command)
    return finish(runGemini(served, workDir, s, fault), s, () => s.responses)
  },
  copilot: async (served, workDir, command, fault) => {
    const s = await startChatStandIn(command)
    return finish(runCopilot(served, workDir, s, fault), s, () => s.toolResults)
  }
}

/** What reached the model, and the harness's output. */
interface Ran {
  model: string
  out: string
  /** What the harness logged of Muster's hook, where it keeps such a log (Claude Code's debug file). */
  hookLog?: string
}

/** Waits for the harness to end; then stops it (if still there) and its stand-in. */
async function finish(run: HarnessRun, standIn: { close(): Promise<void> }, told: () => unknown): Promise<Ran> {
  try {
    const out = await run.done
    return { model: JSON.stringify(told()), out: out.out }
  } finally {
    run.kill()
    await standIn.close()
  }
}

for (const c of FAULT_CASES) {
  test(`${c.mode}: ${c.fault}: blocked, the command does not run, the model is told why`, async ({ demo, workDir }) => {
    test.skip(!existsSync(CLI[c.harness]!), `${c.harness} CLI absent (.cache: filled by .ci/run): skipping the real-harness e2e`)
    test.setTimeout(240_000)
    const marker = join(workDir, `${c.harness}-project`, `${c.fault}-marker.txt`)
    // its folder exists (it is the harness's project, or beside it): a command that ran would leave the marker
    mkdirSync(dirname(marker), { recursive: true })
    const { model, out, hookLog } = await RUNNERS[c.harness]!(
      demo,
      workDir,
      `touch ${marker}`,
      breaker(demo, workDir, c.fault),
      c.install ?? []
    )
    expect(existsSync(marker), out).toBe(false)
    expect(model, out).toMatch(c.model)
    if (c.hook) expect(hookLog, out).toMatch(c.hook)
  })
}
