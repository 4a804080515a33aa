import { renameSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../../test/helpers/tmp'
import type { HubEvent } from '../../../shared/contract/hub-types'
import { LocalTail } from './local-tail'
import { createHub, HUB_FILENAME } from './schema'
import { appendEvent } from './writer'

const add = (palace: string, body: string): void => {
  const hub = createHub(palace)
  appendEvent(hub.db, hub.replicaId, { type: 'chat.message', stream: 'project/x', room: 'rooms', from_agent: 'a', body })
  hub.close()
}

async function until(check: () => boolean): Promise<void> {
  const t = Date.now()
  while (!check()) {
    if (Date.now() - t > 20_000) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('a live tail follows the file that is the hub', () => {
  it('a hub replaced by rename: the tail goes on in the new file (after the last event it had, if there, else from its start)', async () => {
    const palace = tmpDir()
    add(palace, 'a1')
    const seen: string[] = []
    const tail = new LocalTail(palace, { from: 'start' }, { events: (e: HubEvent[]) => seen.push(...e.map((x) => x.body)) }, { pollMs: 20 })
    try {
      await until(() => seen.includes('a1'))
      const other = tmpDir()
      add(other, 'b1')
      add(other, 'b2')
      renameSync(join(other, HUB_FILENAME), join(palace, HUB_FILENAME))
      await until(() => seen.includes('b2'))
      add(palace, 'b3')
      await until(() => seen.includes('b3'))
      expect(seen).toEqual(['a1', 'b1', 'b2', 'b3'])
    } finally {
      tail.close()
    }
  })
})
