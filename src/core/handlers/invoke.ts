/**
 * Handlers of the invocation-protocol methods: one check against the four rules, and the findings
 * of the fleet's role files and of hub event bodies (read through the hub service: the last 500
 * events per tag marker and hub).
 */
import type { invokeMethods } from '../../shared/api'
import { taskSlug } from '../hub'
import { eventFindings, roleFileFindings, TAG_MARKERS, type TaggedEvent } from '../muse'
import { ASSUMPTION_LINE, blockedLine, checkInvocation, effectiveChain, isCritic, isValidRole, parseChain } from '../invoke'
import type { HandlersFor, ServiceContext } from '../service-context'

/** Tagged events read per hub and marker (newest first). */
const EVENTS_PER_MARKER = 500

/** The invocation handlers bound to a service context. */
export function invokeHandlers(ctx: ServiceContext): HandlersFor<typeof invokeMethods> {
  return {
    'invoke.check': async ({ chain, target, phase, caller }) => {
      const roles = parseChain(chain)
      const t = target.toLowerCase()
      const warnings = [...roles, t]
        .filter((r, i, all) => all.indexOf(r) === i && !isValidRole(r))
        .map((r) => `unknown role '${r}' (valid: ceo cfo cro cmo cpo cto chro coo ciso, gc cdo caio cco vpe)`)
      if (caller && !isCritic(caller) && !isValidRole(caller)) warnings.push(`unknown caller '${caller}' (a role, or executive-mentor)`)
      const v = checkInvocation(t, { chain: roles, phase, caller })
      const full = effectiveChain({ chain: roles, caller })
      return v.allowed
        ? { allowed: true, rule: null, reason: null, chain: full, target: t, warnings, blocked: null, assumption: null }
        : {
            allowed: false,
            rule: v.rule,
            reason: v.reason,
            chain: full,
            target: t,
            warnings,
            blocked: blockedLine(t, v.reason),
            assumption: ASSUMPTION_LINE
          }
    },
    'invoke.findings': async ({ project }) => {
      const projects = project ? [ctx.registry.get(project)] : ctx.registry.list()
      const roles = await roleFileFindings(projects)
      const findings = [...roles.findings]
      let events = 0
      const { hubs, default: def } = await ctx.call('hubs.list', {})
      const targets = [...hubs.filter((h) => h.exists), ...(def.exists && !def.registered ? [def] : [])]
      // a project's events live in its stream, `project/<slug>` (spec section 4)
      const stream = project ? `project/${taskSlug(projects[0]!.name, 'project')}` : undefined
      for (const h of targets) {
        const seen = new Map<string, TaggedEvent>()
        for (const text of TAG_MARKERS) {
          const page = await ctx.call('hub.list', {
            ...(h.registered ? { hub: h.name } : { palace: h.palace }),
            text,
            order: 'desc',
            limit: EVENTS_PER_MARKER,
            ...(stream ? { stream } : {})
          })
          for (const e of page.events) seen.set(e.id, { id: e.id, from_agent: e.from_agent, body: e.body })
        }
        events += seen.size
        findings.push(...eventFindings(h.name, [...seen.values()]))
      }
      return {
        findings,
        scanned: { roleFiles: roles.files, events },
        errors: findings.filter((f) => f.level === 'error').length,
        warnings: findings.filter((f) => f.level === 'warning').length
      }
    }
  }
}
