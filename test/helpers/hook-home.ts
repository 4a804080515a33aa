/** A Muster home with one registered hub file, as the approve-hook tests start from. */
import { join } from 'node:path'
import { createHub } from '../../src/core/hub/store/schema'
import { createService } from '../../src/core/root'
import type { MusterService } from '../../src/core/service-types'
import { tmpDir } from './tmp'

/** What `hookHome` made: the Muster home, the palace of its hub `main`, and a service on the home (close it after). */
export interface HookHome {
  home: string
  palace: string
  service: MusterService
}

/** A fresh home whose hub `main` is a new hub file; `operatorId` is set when given. */
export async function hookHome(operatorId?: string): Promise<HookHome> {
  const home = join(tmpDir(), 'home')
  const palace = join(tmpDir(), 'palace')
  createHub(palace).close()
  const service = await createService({ home, transport: 'http', watch: false })
  if (operatorId) await service.call('settings.update', { operatorId })
  await service.call('hubs.add', { palace, name: 'main' })
  return { home, palace, service }
}
