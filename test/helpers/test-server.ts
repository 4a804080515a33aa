/** Muster's HTTP server as the server tests start it: a service on a new home, serving a small static site. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { createService } from '../../src/core/root'
import type { MusterService } from '../../src/core/service-types'
import { startServer, type RunningServer } from '../../src/server/http-server'
import { tmpDir } from './tmp'

/** A new folder holding `index.html` (titled Muster) and `assets/app.js`. */
export function staticSite(): string {
  const dir = tmpDir()
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Muster</title>')
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)')
  return dir
}

/** What `serveEachTest` started for a test: the service, the server in front of it, and the static folder it serves. */
export interface TestServer {
  service: MusterService
  server: RunningServer
  staticDir: string
}

/**
 * Before each test: a service on a new home behind the HTTP server (bearer `token`, event-stream
 * pings every `pingMs`) serving a `staticSite`, handed to `set`; after it, both closed.
 */
export function serveEachTest(token: string, pingMs: number, set: (started: TestServer) => void): void {
  let started: TestServer | undefined
  beforeEach(async () => {
    const staticDir = staticSite()
    const service = await createService({ home: tmpDir(), transport: 'http', watch: false })
    started = { service, server: await startServer({ service, token, staticDir, pingMs }), staticDir }
    set(started)
  })
  afterEach(async () => {
    await started!.server.close()
    await started!.service.close()
  })
}
