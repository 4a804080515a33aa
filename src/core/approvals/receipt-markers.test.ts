import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  STALE_CLAIM_MS,
  digest,
  disableReceipts,
  enableReceipts,
  leaveMarker,
  receiptsEnabled,
  sessionHasMarkers,
  sessionReceiptsDir,
  takeMarker,
  takeSessionMarkers,
  type ReceiptMarker
} from './receipt-markers'

const H = 'claude-code'
const S = 'sess-1'
let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'muster-markers-'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

function marker(over: Partial<ReceiptMarker> = {}): ReceiptMarker {
  const input = over.tool_name === 'Write' ? { file_path: '/x' } : { command: 'npm test' }
  return {
    request: { id: 'evt_1', correlation_id: 'appr_000000000001', stream: 'project/muse', agent: 'mac-claude' },
    tool_name: 'Bash',
    digest: digest(over.tool_name ?? 'Bash', input),
    tool_use_id: 'toolu_01',
    state: 'allow',
    at: new Date().toISOString(),
    ...over
  }
}

describe('receipt markers', () => {
  it('are enabled per harness, and disabling removes what was left', () => {
    expect(receiptsEnabled(home, H)).toBe(false)
    enableReceipts(home, H)
    expect(receiptsEnabled(home, H)).toBe(true)
    expect(receiptsEnabled(home, 'codex')).toBe(false)
    leaveMarker(home, H, S, marker())
    disableReceipts(home, H)
    expect(receiptsEnabled(home, H)).toBe(false)
  })

  it('a call takes its marker by tool_use_id once; settling removes the session folder', () => {
    leaveMarker(home, H, S, marker())
    expect(sessionHasMarkers(home, H, S)).toBe(true)
    const call = { tool_use_id: 'toolu_01', tool_name: 'Bash', tool_input: { command: 'npm test' } }
    const t = takeMarker(home, H, S, call)
    expect(t?.marker.request.correlation_id).toBe('appr_000000000001')
    // taken: nobody else gets it
    expect(takeMarker(home, H, S, call)).toBeNull()
    t!.settle()
    expect(sessionHasMarkers(home, H, S)).toBe(false)
  })

  it('without a tool_use_id, the same tool and input in the same session match; another input does not', () => {
    leaveMarker(home, H, S, marker({ tool_use_id: null }))
    expect(takeMarker(home, H, S, { tool_use_id: null, tool_name: 'Bash', tool_input: { command: 'npm run build' } })).toBeNull()
    expect(takeMarker(home, H, 'other-session', { tool_use_id: null, tool_name: 'Bash', tool_input: { command: 'npm test' } })).toBeNull()
    const t = takeMarker(home, H, S, { tool_use_id: null, tool_name: 'Bash', tool_input: { command: 'npm test' } })
    expect(t?.marker.tool_name).toBe('Bash')
  })

  it('a different tool_use_id never takes a marker, even for the same input', () => {
    leaveMarker(home, H, S, marker())
    expect(takeMarker(home, H, S, { tool_use_id: 'toolu_02', tool_name: 'Bash', tool_input: { command: 'npm test' } })).toBeNull()
  })

  it('a marker still waiting for the operator is not taken by a call event, but by the session end', () => {
    leaveMarker(home, H, S, marker({ state: 'waiting' }))
    expect(takeMarker(home, H, S, { tool_use_id: 'toolu_01', tool_name: 'Bash', tool_input: { command: 'npm test' } })).toBeNull()
    const all = takeSessionMarkers(home, H, S)
    expect(all.map((t) => t.marker.state)).toEqual(['waiting'])
  })

  it('a restored marker can be taken again', () => {
    leaveMarker(home, H, S, marker())
    const call = { tool_use_id: 'toolu_01', tool_name: 'Bash', tool_input: { command: 'npm test' } }
    takeMarker(home, H, S, call)!.restore()
    expect(takeMarker(home, H, S, call)).not.toBeNull()
  })

  it('a claim older than 120 s is taken again; a fresh one is not', () => {
    leaveMarker(home, H, S, marker())
    const call = { tool_use_id: 'toolu_01', tool_name: 'Bash', tool_input: { command: 'npm test' } }
    const t0 = 1_000_000
    expect(takeMarker(home, H, S, call, t0)).not.toBeNull()
    // a session hook that died holding it: the claim stays
    expect(readdirSync(sessionReceiptsDir(home, H, S))[0]).toMatch(/\.claim$/)
    expect(takeMarker(home, H, S, call, t0 + STALE_CLAIM_MS)).toBeNull()
    const again = takeMarker(home, H, S, call, t0 + STALE_CLAIM_MS + 1)
    expect(again?.marker.tool_use_id).toBe('toolu_01')
    again!.settle()
    expect(existsSync(sessionReceiptsDir(home, H, S))).toBe(false)
  })

  it('a file that is not a marker is removed, not returned', () => {
    leaveMarker(home, H, S, marker())
    const dir = sessionReceiptsDir(home, H, S)
    const [name] = readdirSync(dir)
    renameSync(join(dir, name!), join(dir, 'junk.json'))
    rmSync(join(dir, 'junk.json'))
    leaveMarker(home, H, S, marker({ tool_use_id: 'toolu_09' }))
    expect(takeSessionMarkers(home, H, S)).toHaveLength(1)
  })
})
