/**
 * Codex fails a PermissionRequest hook closed when its answer carries a field Codex reserves
 * (`updatedPermissions`, `updatedInput`, `interrupt: true`): an "approve always" that sent one
 * would turn into a deny. Muster sends Codex none of them, for every verdict and with "always";
 * this holds against the schema the installed Codex release ships in its own binary, and the
 * answers must fit that schema (no field it does not declare).
 */
import { describe, expect, it } from 'vitest'
import { adapterFor } from '../src/core/approvals/harnesses'
import type { HarnessCall, HookVerdict } from '../src/core/approvals/harnesses'
import { codexBinary, codexSchema, resolveRef, type JsonSchema } from './helpers/codex-schemas'

const binary = codexBinary()
if (!binary) console.log('codex-permission-schema: Codex CLI absent (.cache/codex, filled by .ci/run): skipping the shipped-schema check')

const call: HarnessCall = {
  harness: 'codex',
  event: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'npm test -- --run' },
  session_id: 'c-1',
  cwd: '/work/dya',
  tool_use_id: null,
  transcript_path: null,
  suggestions: null
}

/** The same call with the "always" updates Codex offered (it may copy Claude Code's `permission_suggestions`). */
const suggested: HarnessCall = {
  ...call,
  suggestions: [
    { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
    { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], behavior: 'allow', destination: 'localSettings' }
  ]
}

/** Every answer Muster can give Codex to a PermissionRequest (printing nothing is Codex's own prompt). */
function answers(): { label: string; out: Record<string, unknown> }[] {
  const codex = adapterFor('codex')!
  const cases: [HookVerdict, boolean][] = [
    ['allow', false],
    ['allow', true],
    ['deny', false],
    ['deny', true],
    ['ask', false]
  ]
  return [call, suggested]
    .flatMap((c) =>
      cases.map(([verdict, always]) => ({
        label: `${verdict}${always ? ' always' : ''}${c.suggestions ? ' (with suggestions)' : ''}`,
        reply: codex.answer(c, verdict, 'because', { always })
      }))
    )
    .filter((a) => a.reply.stdout.trim() !== '')
    .map((a) => ({ label: a.label, out: JSON.parse(a.reply.stdout) as Record<string, unknown> }))
}

/** The fields whose description in the schema says Codex fails closed on them. */
function failClosedFields(decision: JsonSchema): string[] {
  return Object.entries(decision.properties ?? {})
    .filter(([, s]) => typeof s !== 'boolean' && /fail closed/i.test(s.description ?? ''))
    .map(([k]) => k)
}

describe.skipIf(!binary)("Muster's Codex answers against the schema Codex ships", () => {
  it('never carries a field Codex fails closed on, and declares nothing the schema does not', { timeout: 180_000 }, () => {
    const doc = codexSchema(binary!, 'permission-request.command.output')
    expect(doc, 'permission-request.command.output in the Codex binary').not.toBeNull()
    const specific = resolveRef(doc!, doc!.properties!.hookSpecificOutput)!
    const decision = resolveRef(doc!, specific.properties!.decision)!
    const reserved = failClosedFields(decision)
    // the release the adapter was checked against reserves these three
    expect(reserved).toEqual(expect.arrayContaining(['updatedPermissions', 'updatedInput', 'interrupt']))
    for (const { label, out } of answers()) {
      expect(
        Object.keys(out).every((k) => k in doc!.properties!),
        label
      ).toBe(true)
      const hso = out.hookSpecificOutput as Record<string, unknown>
      expect(
        Object.keys(hso).every((k) => k in specific.properties!),
        label
      ).toBe(true)
      const d = hso.decision as Record<string, unknown>
      expect(
        Object.keys(d).every((k) => k in decision.properties!),
        label
      ).toBe(true)
      for (const k of reserved) expect(d[k] === undefined || (k === 'interrupt' && d[k] === false), `${label}: ${k}`).toBe(true)
    }
  })
})

describe('Codex answers (whatever is installed)', () => {
  it('"approve always" is a plain allow for Codex: Muster’s own signed rule is the only lasting grant', () => {
    const byLabel = Object.fromEntries(answers().map((a) => [a.label, a.out]))
    expect(byLabel['allow always']).toEqual(byLabel['allow'])
    expect(byLabel['allow always']).toEqual({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } })
    expect(byLabel['allow always (with suggestions)']).toEqual(byLabel['allow'])
  })

  it('no answer carries updatedPermissions, updatedInput or interrupt, whatever Codex offered (issue 32 point 2)', () => {
    const all = answers()
    expect(all.length).toBeGreaterThanOrEqual(8)
    for (const { label, out } of all) {
      const d = (out.hookSpecificOutput as Record<string, unknown>).decision as Record<string, unknown>
      expect(Object.keys(d).sort(), label).toEqual(d.behavior === 'deny' ? ['behavior', 'message'] : ['behavior'])
      expect(JSON.stringify(out), label).not.toMatch(/updatedPermissions|updatedInput|interrupt|setMode|addRules/)
    }
  })
})
