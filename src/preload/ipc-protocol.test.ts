import { describe, expect, it } from 'vitest'
import { ApiError } from '../shared/api'
import { isApiErrorCode, normalizeIpcResult, toCodedError, unwrapIpcResult } from './ipc-protocol'

describe('ipc protocol', () => {
  it('knows exactly the contract error codes', () => {
    for (const code of ['invalid_input', 'not_found', 'conflict', 'forbidden', 'internal']) expect(isApiErrorCode(code)).toBe(true)
    expect(isApiErrorCode('ENOENT')).toBe(false)
    expect(isApiErrorCode(undefined)).toBe(false)
  })
  it('normalises envelopes', () => {
    expect(normalizeIpcResult({ ok: true, value: 1, junk: 2 })).toEqual({ ok: true, value: 1 })
    expect(normalizeIpcResult({ ok: false, error: '', code: 'conflict' })).toEqual({ ok: false, error: 'request failed', code: 'conflict' })
    expect(normalizeIpcResult(42)).toMatchObject({ ok: false, code: 'internal' })
  })
  it('unwraps with a custom error factory (e.g. the renderer building a real ApiError)', () => {
    expect(unwrapIpcResult({ ok: true, value: 'v' })).toBe('v')
    expect(() => unwrapIpcResult({ ok: false, error: 'gone', code: 'not_found' }, (m, c) => new ApiError(m, c))).toThrow(ApiError)
    const err = toCodedError('m', 'forbidden')
    expect(err).toMatchObject({ name: 'ApiError', code: 'forbidden', message: 'm' })
  })
})
