/** The pure parts of remote hubs: URLs, token files, tool arguments, HTTP error shapes. */
import { execFileSync } from 'node:child_process'
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import { listArgs, rejectsArgument, toEnvelope } from './remote-args'
import { httpError, RemoteCallError, retryAfterMs } from './remote-mcp'
import { loadToken, removeToken, storeToken } from './remote-token'
import { readTokenFile } from './token-file'
import { defaultRemoteName, isHubUrl, normalizeHubUrl, remoteKey } from './remote-url'

describe('remote hub URLs', () => {
  it('normalises a server URL to one key; refuses credentials, queries and other schemes', () => {
    expect(normalizeHubUrl(' http://Hub.Example:8765/ ')).toBe('http://hub.example:8765')
    expect(normalizeHubUrl('https://h/base//')).toBe('https://h/base')
    expect(remoteKey('http://hub.example:8765')).toMatch(/^[0-9a-f]{16}$/)
    expect(() => normalizeHubUrl('ftp://h')).toThrow('only http and https')
    expect(() => normalizeHubUrl('http://u:p@h')).toThrow('must not carry credentials')
    expect(() => normalizeHubUrl('http://h/?token=x')).toThrow('no query or fragment')
    expect(() => normalizeHubUrl('not a url')).toThrow("invalid hub URL 'not a url'")
    expect(isHubUrl('HTTP://h')).toBe(true)
    expect(isHubUrl('/home/me/palace')).toBe(false)
    expect(defaultRemoteName('http://127.0.0.1:8765')).toBe('127.0.0.1-8765')
    expect(defaultRemoteName('https://hub.example')).toBe('hub.example')
  })
})

describe('remote hub tokens', () => {
  it('copies a token into Muster home with mode 0600 (folder 0700) and reads it back', () => {
    const home = tmpDir()
    const src = join(tmpDir(), 'token')
    writeFileSync(src, '  s3cr3t-token\n')
    const rel = storeToken(home, 'http://h:1', readTokenFile(src, '/'))
    expect(rel).toBe(`hub-tokens/${remoteKey('http://h:1')}.token`)
    expect(statSync(join(home, rel)).mode & 0o777).toBe(0o600)
    expect(statSync(join(home, 'hub-tokens')).mode & 0o777).toBe(0o700)
    expect(loadToken(home, rel, 'h')).toBe('s3cr3t-token')
    expect(loadToken(home, null, 'h')).toBeNull()
    removeToken(home, rel)
    expect(() => loadToken(home, rel, 'h')).toThrow("the token of hub 'h' is missing")
    expect(() => loadToken(home, '../outside', 'h')).toThrow("outside Muster's home")
  })

  it('reads a token file from the CLI: relative to the working folder, ~/ from home', () => {
    const dir = tmpDir()
    writeFileSync(join(dir, 'tok'), 'abc-123\n')
    expect(readTokenFile('tok', dir)).toBe('abc-123')
    expect(readTokenFile('~/tok', '/', dir)).toBe('abc-123')
    expect(readTokenFile(join(dir, 'tok'), '/elsewhere')).toBe('abc-123')
  })

  it('refuses a missing, empty, oversized, non-regular or non-token file with a message that never quotes its content', () => {
    const dir = tmpDir()
    expect(() => readTokenFile(join(dir, 'nope'), dir)).toThrow(/cannot read token file .*nope: ENOENT/)
    writeFileSync(join(dir, 'empty'), ' \n')
    expect(() => readTokenFile('empty', dir)).toThrow('is empty')
    writeFileSync(join(dir, 'big'), 'x'.repeat(16 * 1024 + 1))
    expect(() => readTokenFile('big', dir)).toThrow(`token file ${join(dir, 'big')} is 16385 bytes: not a bearer token`)
    mkdirSync(join(dir, 'folder'))
    expect(() => readTokenFile('folder', dir)).toThrow(`token file ${join(dir, 'folder')} is not a regular file`)
    // A FIFO would block the read forever: refused before opening it.
    execFileSync('mkfifo', [join(dir, 'fifo')])
    expect(() => readTokenFile('fifo', dir)).toThrow('is not a regular file')
    writeFileSync(join(dir, 'spaced'), 'secret part two\n')
    let message = ''
    try {
      readTokenFile('spaced', dir)
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).toMatch(/does not hold a bearer token/)
    expect(message).not.toContain('secret')
  })
})

describe('tool arguments and errors', () => {
  it('turns a list query into mempalace_event_list arguments only when the tool can express it', () => {
    expect(listArgs({ type: 'note', from_agent: ['bob'], since_event_id: 'evt_x', limit: 5 }, 'writer')).toEqual({
      type: 'note',
      writer: 'bob',
      since_event_id: 'evt_x',
      order: 'asc'
    })
    expect(listArgs({ from_agent: 'bob', order: 'desc', preview: true }, 'from_agent')).toEqual({
      from_agent: 'bob',
      order: 'desc',
      preview: true
    })
    expect(listArgs({ type: ['a', 'b'] }, 'writer')).toBeNull()
    expect(listArgs({ text: 'x' }, 'writer')).toBeNull()
    expect(listArgs({ exclude_from_agent: 'me' }, 'writer')).toBeNull()
    expect(listArgs({ since_seq: 3 }, 'writer')).toBeNull()
  })

  it('recognises an older hub refusing an argument (-32602 Unknown parameter)', () => {
    const refused = new RemoteCallError(
      "hub server http://h: Unknown parameter 'writer' for tool mempalace_event_list (JSON-RPC -32602)",
      'invalid_input',
      { rpcCode: -32602 }
    )
    expect(rejectsArgument(refused, 'writer')).toBe(true)
    expect(rejectsArgument(refused, 'topic')).toBe(false)
    expect(
      rejectsArgument(
        new RemoteCallError("Unknown parameters 'topic', 'writer' for tool x", 'invalid_input', { rpcCode: -32602 }),
        'writer'
      )
    ).toBe(true)
    expect(rejectsArgument(new RemoteCallError("Unknown parameter 'writer'", 'internal', { rpcCode: -32000 }), 'writer')).toBe(false)
  })

  it('maps HTTP answers to clear errors (401, 503 with Retry-After, 400 with upstream JSON)', () => {
    expect(retryAfterMs('5')).toBe(5000)
    expect(retryAfterMs(null)).toBeNull()
    expect(retryAfterMs('soon')).toBeNull()
    expect(retryAfterMs(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(50_000)
    expect(httpError('http://h', 401, 'Unauthorized', null)).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('refused the token (HTTP 401)')
    })
    expect(httpError('http://h', 503, '', '5')).toMatchObject({
      code: 'conflict',
      detail: { retryAfterMs: 5000 },
      message: expect.stringContaining('retry after 5 s')
    })
    expect(httpError('http://h', 400, 'Bad Request', null, '{"error": "since_event_id \'x\' not found"}').message).toBe(
      "hub server http://h answered HTTP 400: since_event_id 'x' not found"
    )
    expect(httpError('http://h', 500, 'Internal', null, '<html>').message).toBe('hub server http://h answered HTTP 500 Internal')
  })

  it('reads an older hub envelope (no topic or replication fields) and keeps preview marks', () => {
    const raw = {
      id: 'evt_1',
      seq: 4,
      type: 'note',
      stream: 's',
      room: 'r',
      from_agent: 'a',
      to_agent: null,
      correlation_id: null,
      branch: null,
      base_commit: null,
      status: null,
      artifact_ids: ['b', 'a'],
      body: 'x',
      created_at: '2026-01-01T00:00:00Z',
      metadata: {},
      body_truncated: true,
      body_length: 900
    }
    // the missing fields come back null, the artifact ids sorted; the rest as given
    expect(toEnvelope(raw)).toEqual({ ...raw, origin_replica: null, origin_seq: null, hlc: null, topic: null, artifact_ids: ['a', 'b'] })
    expect(() => toEnvelope({ id: 'evt_1' })).toThrow()
  })
})
