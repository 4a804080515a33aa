/**
 * The gate health worker (a worker thread, built beside each bundle as `gate-health-worker`):
 * checks every gate of a home off the main thread of the app or `muster serve`
 * (`core/approvals/gate-monitor.ts`), with the home's hub registry read from a state DB opened
 * read-only by a root of its own, and posts the rows back.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { checkGates, type GateWorkerInput, type GateWorkerOutput } from '../approvals'
import { HubRegistry } from '../hub'
import { openRoot } from './root'

async function main(input: GateWorkerInput): Promise<GateWorkerOutput> {
  const root = openRoot({ home: input.home, env: input.env, state: 'read-only' })
  try {
    let registry: HubRegistry | null = null
    try {
      registry = new HubRegistry(root.get('state'))
    } catch {
      // no state DB yet: no registered hubs
    }
    return { gates: await checkGates({ ...input, registry }) }
  } catch (err) {
    return { error: (err as Error).message }
  } finally {
    await root.close()
  }
}

void main(workerData as GateWorkerInput).then((out) => parentPort?.postMessage(out))
