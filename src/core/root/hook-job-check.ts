/**
 * Whether a hook job (a file in `<home>/hook-jobs/`, written by the hook's fast path, but any
 * process running as the user can write one) may be recorded, checked before anything is opened:
 * - made for this home, by a valid agent id;
 * - for a hub this home knows: a registered one, or MemPalace's default palace as this process
 *   resolves it, and only if its hub file exists (a job's own environment chooses nothing, and no
 *   hub is ever created where a job says);
 * - answered by a rule of this home's allowlist: the same rule (id and patterns), signed by a key
 *   this home trusts, and allowing exactly this call for this agent;
 * - for a call that needs no presence under this home's policy (the fast path never answers one).
 * The answer is the hub to record in, or why the job is refused.
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { isAgentId } from '../../shared/agent-id'
import { ruleMatches } from '../../shared/approvals/allow-rules'
import { readProvenance } from '../../shared/approvals/provenance'
import { presenceNeeded } from '../../shared/approvals/presence'
import { AllowlistStore, DecisionTrust, trustedKeyIds, type HookJob } from '../approvals'
import { chooseHub, HubRegistry, resolvePalace } from '../hub'
import { loadHookPresence } from '../presence'
import type { Db } from '../sqlite'

/** The hub file in a palace folder. */
const HUB_FILE = 'logstream.sqlite3'

/** The verdict on one job: the hub selection to record it in, or why not. */
export type JobVerdict = { ok: true; sel: { hub?: string; palace?: string } } | { ok: false; why: string }

/** Checks a job against the home it was found in (see the file comment). */
export function checkHookJob(job: HookJob, home: string, db: Db | null): JobVerdict {
  const o = job.options
  if (typeof o.home !== 'string' || resolve(o.home) !== resolve(home))
    return { ok: false, why: `it names another Muster home (${String(o.home)})` }
  if (!isAgentId(o.agent)) return { ok: false, why: `its agent id is not one (${JSON.stringify(o.agent)})` }
  if (!db) return { ok: false, why: 'this home has no state DB, so no allowlist' }
  const registry = new HubRegistry(db)
  let sel: { hub?: string; palace?: string }
  try {
    const choice = chooseHub(registry, { hub: o.hub, palace: o.palace }, job.env ?? {}, job.cwd)
    if (choice.record) sel = { hub: choice.record.name }
    else {
      const own = resolvePalace(undefined, process.env, process.cwd()).palace
      if (resolve(choice.location) !== resolve(own)) return { ok: false, why: `its hub is not registered here (${choice.location})` }
      if (!existsSync(join(own, HUB_FILE))) return { ok: false, why: `there is no hub at ${own}` }
      sel = { palace: own }
    }
  } catch (err) {
    return { ok: false, why: (err as Error).message }
  }
  if (!AllowlistStore.available(db)) return { ok: false, why: 'this home has no allowlist' }
  const trust = new DecisionTrust(trustedKeyIds(home))
  const store = new AllowlistStore(db, { trust: () => trust })
  const r = job.rule
  let rule
  try {
    rule = store.get(Number(r?.id))
  } catch {
    return { ok: false, why: `allowlist rule #${String(r?.id)} does not exist here` }
  }
  if (rule.agent_pattern !== r.agent_pattern || rule.tool_name !== r.tool_name || rule.input_pattern !== r.input_pattern)
    return { ok: false, why: `allowlist rule #${rule.id} is not the rule it names` }
  if (!rule.trusted)
    return { ok: false, why: `allowlist rule #${rule.id} is not signed by a key this home trusts (${rule.untrusted_reason})` }
  const call = {
    agent: o.agent,
    tool_name: job.call?.tool_name,
    tool_input: job.call?.tool_input,
    cwd: job.call?.cwd ?? null,
    home: homedir(),
    provenance: readProvenance(job.call?.provenance)
  }
  if (typeof call.tool_name !== 'string' || !call.tool_input || typeof call.tool_input !== 'object')
    return { ok: false, why: 'its call is not one' }
  if (!ruleMatches(rule, call)) return { ok: false, why: `allowlist rule #${rule.id} does not allow this call for ${o.agent}` }
  const { policy, risky } = loadHookPresence(home, undefined, () => {}).config
  if (presenceNeeded(policy, call, risky)) return { ok: false, why: 'its call needs your presence, which no rule gives' }
  return { ok: true, sel }
}
