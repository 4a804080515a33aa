/** The contract's service on a root of its own: what Electron main, `muster serve` and tests run. */
import type { MusterService } from '../service-types'
import { openRoot, type RootOptions } from './root'

/** Opens a root on `opts.home` (watching unless `watch: false`) and builds its service; the service's `close` closes the root. */
export async function createService(opts: RootOptions): Promise<MusterService> {
  const root = openRoot({ ...opts, watch: opts.watch ?? true })
  try {
    return await root.get('service')
  } catch (err) {
    await root.close()
    throw err
  }
}
