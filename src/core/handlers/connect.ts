/**
 * Handlers of connecting agents: the harnesses on this machine with their gates (`connect.list`),
 * one-step install and removal of a harness's gate and session hooks, and a test request. The
 * work is in the approvals domain (`core/approvals/connect.ts`); these map the contract to it.
 */
import { ApiError } from '../../shared/api-error'
import type { connectMethods } from '../../shared/api'
import type { ConnectEdit, ConnectResult } from '../../shared/contract/connect-types'
import {
  HARNESS_LIST,
  connectHarness,
  connectHub,
  defaultAgent,
  disconnectHarness,
  harnessConnection,
  harnessConnections,
  harnessNamed,
  launcherProgram,
  sendTestRequest,
  testAsk,
  trustedKeyIds,
  type ConnectPlace,
  type HarnessAdapter
} from '../approvals'
import { defaultCliHome } from '../fleet'
import { userHome } from '../hub'
import type { HandlersFor, ServiceContext } from '../service-context'

/** An edit's result as the contract carries it. */
const edit = (r: { file: string; events: string[]; action: ConnectEdit['action'] }): ConnectEdit => ({
  file: r.file,
  events: r.events,
  action: r.action
})

/** The connect handlers bound to a service context. */
export function connectHandlers(ctx: ServiceContext): HandlersFor<typeof connectMethods> {
  const env = (ctx.opts.env ?? process.env) as NodeJS.ProcessEnv
  const home = ctx.opts.home
  const place = (): ConnectPlace => ({ userHome: userHome(env), cwd: process.cwd(), PATH: env.PATH })
  const health = () => ctx.gates.report().gates
  const connection = (h: HarnessAdapter) => harnessConnection(h, place(), home, health(), env)

  /** The harness's connection after a change, its gate checked at once (as `approve-hook install` does). */
  async function after(h: HarnessAdapter, file: string): Promise<ConnectResult['connection']> {
    // a watching service checks every gate again, so the Overview's panel and the queue follow
    if (ctx.opts.watch) void ctx.gates.check().catch(() => {})
    const fresh = await ctx.gates.checkFile(file).catch(() => [])
    const c = await connection(h)
    return { ...c, health: fresh.length ? fresh.filter((g) => g.harness === h.id) : c.health }
  }

  return {
    'connect.list': async () => {
      const report = ctx.gates.report()
      return {
        harnesses: await harnessConnections(place(), home, report.gates, env),
        hub: connectHub(ctx.hubs),
        default_agents: Object.fromEntries(HARNESS_LIST.map((h) => [h.name, defaultAgent(h)])),
        checked_at: report.at
      }
    },
    'connect.install': async ({ harness, agent }) => {
      const h = harnessNamed(harness)
      const found = await connection(h)
      ctx.keys.ensure()
      const r = connectHarness(
        {
          harness: h,
          agent: agent ?? found.gate.agent ?? defaultAgent(h),
          program: launcherProgram(home, env.PATH),
          operatorKeys: trustedKeyIds(ctx.keys.home),
          version: found.version,
          home,
          installedHome: home === defaultCliHome() ? undefined : home
        },
        place()
      )
      const notes = [...r.gate.notes, ...(r.session?.notes ?? [])]
      return { connection: await after(h, r.gate.file), gate: edit(r.gate), session: r.session ? edit(r.session) : null, notes }
    },
    'connect.remove': async ({ harness }) => {
      const h = harnessNamed(harness)
      const r = disconnectHarness(h, place(), home)
      return { connection: await after(h, r.gate.file), gate: edit(r.gate), session: r.session ? edit(r.session) : null, notes: [] }
    },
    'connect.test': async ({ harness }) => {
      const h = harnessNamed(harness)
      const found = await connection(h)
      if (!found.gate.installed)
        throw new ApiError(`${h.label}'s gate is not installed: connect it first (muster connect ${h.name})`, 'invalid_input')
      const agent = found.gate.agent ?? defaultAgent(h)
      const sent = await sendTestRequest(ctx.hubs, testAsk(h, agent, ctx.settings.get().operatorId))
      return { ...sent, agent }
    }
  }
}
