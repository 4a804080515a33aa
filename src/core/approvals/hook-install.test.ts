import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { adapterFor, type EntryOptions } from './harnesses'
import { DEFAULT_PRE_TOOL_MATCHER } from './harnesses/claude-code'
import { installedCommand, installHooks, shellQuote, uninstallHooks } from './hook-install'

const spec = (agent = 'mac-claude'): EntryOptions => ({
  event: 'PreToolUse',
  command: `/usr/bin/node /opt/muster/bin/muster.mjs approve-hook --agent ${agent}`,
  matcher: DEFAULT_PRE_TOOL_MATCHER,
  timeoutSec: 570
})
/** One harness's entry, as its own file shapes it. */
const harnessEntry = (name: string, o: EntryOptions) => adapterFor(name)!.gate.entry!(o)
const installHook = (file: string, o: EntryOptions) => installHooks(file, [harnessEntry('claude', o)], 'approve-hook')
const uninstallHook = (file: string) => uninstallHooks(file, 'approve-hook')

// A realistic settings file: other hooks on the same event, other events, permissions, comments, 4-space indent, CRLF.
const SETTINGS = [
  '{',
  '    // my settings',
  '    "model": "opus",',
  '    "permissions": { "allow": ["Bash(npm test:*)"], "deny": [] },',
  '    "hooks": {',
  '        "PreToolUse": [',
  '            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/audit.sh" } ] }',
  '        ],',
  '        "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]',
  '    },',
  '    "env": { "FOO": "1" }',
  '}',
  ''
].join('\r\n')

describe('approve-hook install', () => {
  it('adds its group next to the others, changing nothing else; idempotent; uninstall restores the bytes', () => {
    const file = join(tmpDir(), 'settings.json')
    writeFileSync(file, SETTINGS)
    expect(installHook(file, spec())).toMatchObject({ action: 'installed', events: ['PreToolUse'] })
    const installed = readFileSync(file, 'utf8')
    const parsed = JSON.parse(installed.replace(/^\s*\/\/.*$/m, ''))
    expect(parsed.hooks.PreToolUse).toHaveLength(2)
    expect(parsed.hooks.PreToolUse[1]).toEqual({
      matcher: DEFAULT_PRE_TOOL_MATCHER,
      hooks: [{ type: 'command', command: spec().command, timeout: 570 }]
    })
    expect(parsed.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'say done' }] }])
    // everything before Muster's entry and after it is the original text
    const at = SETTINGS.indexOf('~/bin/audit.sh" } ] }') + '~/bin/audit.sh" } ] }'.length
    expect(installed.slice(0, at)).toBe(SETTINGS.slice(0, at))
    expect(installed.endsWith(SETTINGS.slice(SETTINGS.indexOf('\r\n        ],')))).toBe(true)
    expect(installed).not.toMatch(/[^\r]\n/) // CRLF kept
    expect(installHook(file, spec())).toMatchObject({ action: 'unchanged' })
    expect(readFileSync(file, 'utf8')).toBe(installed)
    expect(installHook(file, spec('win-codex'))).toMatchObject({ action: 'updated' })
    expect(JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/m, '')).hooks.PreToolUse).toHaveLength(2)
    expect(uninstallHook(file)).toMatchObject({ action: 'removed', events: ['PreToolUse'] })
    expect(readFileSync(file, 'utf8')).toBe(SETTINGS)
    expect(uninstallHook(file)).toMatchObject({ action: 'absent' })
    expect(readFileSync(file, 'utf8')).toBe(SETTINGS)
  })

  it('creates hooks where there are none and removes them again byte for byte', () => {
    const dir = tmpDir()
    const file = join(dir, 'settings.json')
    const plain = '{\n  "theme": "dark",\n  "includeCoAuthoredBy": false\n}\n'
    writeFileSync(file, plain)
    installHook(file, { ...spec(), event: 'PermissionRequest', matcher: undefined })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      theme: 'dark',
      includeCoAuthoredBy: false,
      hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: spec().command, timeout: 570 }] }] }
    })
    expect(readFileSync(file, 'utf8').startsWith('{\n  "theme": "dark",\n  "includeCoAuthoredBy": false,')).toBe(true)
    uninstallHook(file)
    expect(readFileSync(file, 'utf8')).toBe(plain)
    // a missing file (and folder) is created
    const fresh = join(dir, 'new', '.codex', 'hooks.json')
    expect(installHook(fresh, spec())).toMatchObject({ action: 'installed' })
    expect(JSON.parse(readFileSync(fresh, 'utf8')).hooks.PreToolUse).toHaveLength(1)
  })

  it('adds an event to an existing hooks object, and leaves hooks added after its own entry alone', () => {
    const file = join(tmpDir(), 'hooks.json')
    const original = '{\n\t"hooks": {\n\t\t"Stop": []\n\t},\n\t"x": 1\n}'
    writeFileSync(file, original)
    installHook(file, { ...spec(), event: 'PermissionRequest' })
    const withOurs = readFileSync(file, 'utf8')
    expect(withOurs.startsWith('{\n\t"hooks": {\n\t\t"Stop": [],\n\t\t"PermissionRequest": [\n\t\t\t{\n\t\t\t\t"matcher"')).toBe(true)
    expect(withOurs.endsWith('\n\t},\n\t"x": 1\n}')).toBe(true)
    // the operator adds their own hook after Muster's; uninstall takes only Muster's out
    const theirs = withOurs.replace(/(\n\t\t\t})(\n\t\t\])/, '$1,\n\t\t\t{ "hooks": [ { "type": "command", "command": "log.sh" } ] }$2')
    writeFileSync(file, theirs)
    uninstallHook(file)
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n\t"hooks": {\n\t\t"Stop": [],\n\t\t"PermissionRequest": [\n\t\t\t{ "hooks": [ { "type": "command", "command": "log.sh" } ] }\n\t\t]\n\t},\n\t"x": 1\n}'
    )
    // into an empty array
    writeFileSync(file, '{ "hooks": { "PreToolUse": [] } }')
    installHook(file, spec())
    expect(JSON.parse(readFileSync(file, 'utf8')).hooks.PreToolUse[0].hooks[0].command).toBe(spec().command)
  })

  it('refuses a file that is not a JSON object, changing nothing', () => {
    const file = join(tmpDir(), 'settings.json')
    for (const bad of ['{ "hooks": ', '[1]', '{ "hooks": [] }', '{ "hooks": { "PreToolUse": {} } }']) {
      writeFileSync(file, bad)
      expect(() => installHook(file, spec())).toThrow(/nothing was changed/)
      expect(readFileSync(file, 'utf8')).toBe(bad)
    }
    expect(existsSync(join(tmpDir(), 'x'))).toBe(false)
  })

  it('migrates an older install: installing on PermissionRequest takes Muster’s PreToolUse group out, keeping the others', () => {
    const file = join(tmpDir(), 'settings.json')
    writeFileSync(file, SETTINGS)
    installHook(file, spec())
    const r = installHooks(
      file,
      [harnessEntry('claude', { ...spec(), event: 'PermissionRequest', matcher: undefined, failClosed: true })],
      'approve-hook'
    )
    expect(r).toMatchObject({ action: 'installed', events: ['PermissionRequest'], migrated_from: ['PreToolUse'] })
    const parsed = JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/m, ''))
    expect(parsed.hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/audit.sh' }] }])
    expect(parsed.hooks.PermissionRequest).toEqual([
      { hooks: [{ type: 'command', command: spec().command, timeout: 570, onFailure: 'block' }] }
    ])
    expect(installedCommand(file, 'PermissionRequest', 'approve-hook')).toBe(spec().command)
    // the session-state hooks are another kind: installing or removing approvals leaves them alone
    installHooks(
      file,
      [harnessEntry('claude', { event: 'Stop', command: 'muster session-hook --agent a', timeoutSec: 10 })],
      'session-hook'
    )
    uninstallHook(file)
    const left = JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/m, ''))
    expect(left.hooks.PermissionRequest).toBeUndefined()
    expect(left.hooks.Stop).toHaveLength(2)
    uninstallHooks(file, 'session-hook')
    expect(readFileSync(file, 'utf8').replace(/"PreToolUse": \[[^\]]*\]/, '')).toBe(SETTINGS.replace(/"PreToolUse": \[[^\]]*\]/, ''))
  })

  it('writes Copilot CLI and Cursor entries flat, in a `{"version": 1}` file of their own shape', () => {
    const dir = tmpDir()
    const copilot = join(dir, '.github', 'hooks', 'muster.json')
    installHooks(
      copilot,
      [harnessEntry('copilot', { event: 'permissionRequest', command: 'muster approve-hook --agent c', timeoutSec: 570 })],
      'approve-hook',
      adapterFor('copilot')!.gate.fileBase
    )
    expect(JSON.parse(readFileSync(copilot, 'utf8'))).toEqual({
      version: 1,
      hooks: { permissionRequest: [{ type: 'command', bash: 'muster approve-hook --agent c', timeoutSec: 570 }] }
    })
    const cursor = join(dir, 'hooks.json')
    const theirs = '{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [{ "command": "./format.sh" }]\n  }\n}\n'
    writeFileSync(cursor, theirs)
    const entries = ['beforeShellExecution', 'beforeMCPExecution'].map((event) =>
      harnessEntry('cursor', { event, command: 'muster approve-hook --agent k', timeoutSec: 570 })
    )
    installHooks(cursor, entries, 'approve-hook', adapterFor('cursor')!.gate.fileBase)
    expect(JSON.parse(readFileSync(cursor, 'utf8')).hooks.beforeShellExecution).toEqual([
      { command: 'muster approve-hook --agent k', timeout: 570, failClosed: true }
    ])
    expect(uninstallHooks(cursor, 'approve-hook')).toMatchObject({
      action: 'removed',
      events: ['beforeShellExecution', 'beforeMCPExecution']
    })
    expect(readFileSync(cursor, 'utf8')).toBe(theirs)
  })

  it('quotes words for the shell', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node')
    expect(shellQuote("/Users/o'neil/My Muster")).toBe(`'/Users/o'\\''neil/My Muster'`)
  })
})
