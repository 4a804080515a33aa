/** Services on fresh homes for the handler tests, each closed after the test that made it. */
import { afterEach } from 'vitest'
import { createService } from '../../src/core/root'
import type { MusterService } from '../../src/core/service-types'
import { tmpDir } from './tmp'

/** Registers the closing after each test; returns the maker of a service on a new home (watching its files when `watch`). */
export function servicesClosedAfterEach(): (watch?: boolean) => Promise<MusterService> {
  const services: MusterService[] = []
  afterEach(async () => {
    while (services.length) await services.pop()!.close()
  })
  return async (watch = false) => {
    const s = await createService({ home: tmpDir(), transport: 'http', watch })
    services.push(s)
    return s
  }
}
