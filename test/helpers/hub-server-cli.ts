/** A hub server stand-in registered in a Muster home through the CLI (vitest only: e2e uses hub-server.ts alone). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCliAtHome } from './cli'
import { startHubServer, type HubServer } from './hub-server'
import { tmpDir } from './tmp'

/**
 * A stand-in on a fresh palace, registered in the Muster home `home` as NAME (`muster hubs add
 * --url URL --token-file HOME/hub-token --name NAME`, run in process); fails the test when the
 * registration does.
 */
export async function registerHubServer(
  home: string,
  o: { token: string; name?: string; palace?: string }
): Promise<HubServer & { palace: string }> {
  const palace = o.palace ?? join(tmpDir(), 'palace')
  const server = await startHubServer({ palace, token: o.token })
  writeFileSync(join(home, 'hub-token'), o.token + '\n')
  const r = await runCliAtHome(home, 'hubs', 'add', '--url', server.url, '--token-file', 'hub-token', '--name', o.name ?? 'lab')
  if (r.code !== 0) {
    await server.stop()
    throw new Error(`muster hubs add failed (${r.code}): ${r.out}${r.err}`)
  }
  return Object.assign(server, { palace })
}
