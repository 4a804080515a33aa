/** `readSettings` (no zod) and the contract's `SettingsSchema` agree on every case. */
import { describe, expect, it } from 'vitest'
import { SettingsSchema } from './contract/fleet-types'
import { readSettings } from './settings-rules'

const ok = { theme: 'dark', operatorId: 'desk-muster', operatorRoles: ['GM', ' atlas/BUILD '] }
const cases: unknown[] = [
  ok,
  { ...ok, theme: 'system', operatorRoles: [] },
  { ...ok, theme: 'blue' },
  { ...ok, operatorId: 'desk muster' },
  { ...ok, operatorId: '' },
  { ...ok, operatorId: 'a'.repeat(256) },
  { ...ok, operatorId: 'a'.repeat(257) },
  { ...ok, operatorId: 'host:agent' },
  { ...ok, operatorRoles: ['a/b/c'] },
  { ...ok, operatorRoles: ['  '] },
  { ...ok, operatorRoles: ['x'.repeat(200)] },
  { ...ok, operatorRoles: ['x'.repeat(201)] },
  { ...ok, operatorRoles: Array.from({ length: 100 }, (_, i) => `R${i}`) },
  { ...ok, operatorRoles: Array.from({ length: 101 }, (_, i) => `R${i}`) },
  { ...ok, operatorRoles: [3] },
  { ...ok, operatorRoles: 'GM' },
  { theme: 'dark', operatorId: 'x' },
  { ...ok, extra: 1 },
  null,
  [],
  'settings'
]

describe('settings rules', () => {
  it.each(cases.map((c) => [JSON.stringify(c)?.slice(0, 60), c]))('%s: same verdict and value as SettingsSchema', (_, c) => {
    const parsed = SettingsSchema.safeParse(c)
    expect(readSettings(c)).toEqual(parsed.success ? parsed.data : null)
  })
})
