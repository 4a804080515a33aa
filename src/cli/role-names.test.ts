/**
 * Role names as the role list shows them: a Unicode role (`产品`) can be read and written through
 * the CLI, the service and `muster mcp`'s MUSE tools (dispatched in process, the bytes MUSE's
 * server appends); path-like names are still refused everywhere; MUSE tools ignore extra arguments.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../test/helpers/fixtures'
import { tmpDir } from '../../test/helpers/tmp'
import type { HubService } from '../core/hub'
import { buildMcpServer } from './mcp/server'
import { runCliIn as run } from '../../test/helpers/cli'

const RELAY = join(REPO_ROOT, 'test', 'fixtures', 'forms', 'relay')
const NOW = new Date(2026, 11, 5, 10, 30)

function copy(): string {
  const dir = join(tmpDir(), 'relay')
  cpSync(RELAY, dir, { recursive: true })
  return dir
}

/** Calls one tool on an in-process `muster mcp` dispatcher; returns the text and the error flag. */
async function call(root: string, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const server = buildMcpServer({ root, hubs: {} as HubService, hub: {}, now: () => NOW })
  const line = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
  const answer = JSON.parse((await server.line(line, new AbortController().signal))!) as {
    result: { content: { text: string }[]; isError?: boolean }
  }
  return { text: answer.result.content[0]!.text, isError: answer.result.isError ?? false }
}

describe('Unicode role names', () => {
  it('muster mcp reads and writes 产品 as its role list shows it, and ignores extra arguments', async () => {
    const root = copy()
    const list = await call(root, 'muse_list_roles', {})
    expect(list.text).toContain('- **产品** (6 lines): v0.1.0 | 产品路线')
    const read = await call(root, 'muse_get_role', { role: '产品', unknown: 1, path: '/etc' })
    expect(read).toEqual({ text: readFileSync(join(root, '.muse', '产品.md'), 'utf8'), isError: false })
    const sent = await call(root, 'muse_send_directive', {
      target_role: '产品',
      directive_id: 'S130',
      title: '定价',
      body: '见附件',
      extra: true
    })
    expect(sent).toEqual({ text: '✅ Directive S130 sent to 产品 (2026-12-05 10:30)', isError: false })
    expect(readFileSync(join(root, '.muse', '产品.md'), 'utf8')).toMatch(
      /\n### 📡 S130→产品 \(2026-12-05 10:30\) — 🟡 待处理\n\n> 定价\n\n见附件\n$/
    )
  })

  it('muster mcp still refuses path-like names with MUSE texts', async () => {
    const root = copy()
    writeFileSync(join(root, 'secret.md'), 'outside .muse\n')
    for (const bad of ['../secret', 'a/b', '..', '.', '..\\secret', 'x\u0000y', '']) {
      const r = await call(root, 'muse_get_role', { role: bad })
      expect(r.isError, bad).toBe(true)
      expect(r.text, bad).toBe(`ERROR: Invalid role name '${bad}'. Use alphanumeric names like: build, growth, qa, gm`)
    }
    expect((await call(root, 'muse_get_role', { role: 'paths' })).isError).toBe(true)
  })

  it('the CLI shows, sends from and resolves targets to 产品; traversal is refused', async () => {
    const dir = copy()
    const home = tmpDir()
    expect((await run(home, 'projects', 'add', dir)).code).toBe(0)
    const role = await run(home, 'role', '--project', 'relay', '产品', '--json')
    expect(role.code, role.err).toBe(0)
    expect((JSON.parse(role.out) as { role: string; pendingDirectives: number }).pendingDirectives).toBe(1)
    const sent = await run(
      home,
      'directive',
      'send',
      '--project',
      'relay',
      '--from',
      '产品',
      '--to',
      'RELAY/BUILD',
      '--title',
      '价格表更新',
      '--json'
    )
    expect(sent.code, sent.err).toBe(0)
    expect(readFileSync(join(dir, '.muse', '产品.md'), 'utf8')).toContain('📡 **S178→RELAY/BUILD**: 🟡 **价格表更新**')
    const to = await run(home, 'directive', 'send', '--project', 'relay', '--from', 'build', '--to', 'RELAY/产品', '--title', '需要文案')
    expect(to.code, to.err).toBe(0)
    const listed = JSON.parse((await run(home, 'directives', '--target', 'relay/产品', '--json')).out) as {
      directives: { key: string; state: string }[]
    }
    expect(listed.directives.map((d) => `${d.key} ${d.state}`).sort()).toEqual(['S120→RELAY/产品 pending', 'S179→RELAY/产品 pending'])
    for (const bad of ['../../etc/passwd', 'a/b', '..', 'a\\b']) {
      expect((await run(home, 'role', '--project', 'relay', bad)).err, bad).toMatch(/^(muster|Error): invalid role name/)
    }
  })
})
