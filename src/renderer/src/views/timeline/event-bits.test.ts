import { describe, expect, it } from 'vitest'
import { typeFamily } from './event-bits'

describe('typeFamily', () => {
  it('colours a type as the hub stores it: trimmed and case-folded', () => {
    expect(typeFamily(' Approval.Request')).toBe('approval')
    expect(typeFamily('approval.decision')).toBe('approval')
    expect(typeFamily('EVENT.ACK ')).toBe('ack')
    expect(typeFamily('\tTask.Request')).toBe('task')
    expect(typeFamily('chat.message')).toBe('other')
  })
})
