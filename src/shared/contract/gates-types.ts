/**
 * Gate health: for every installed gate (harness, settings file, hook event), whether it would
 * really stop an agent's call for the operator: it is still in the settings, its command starts,
 * the harness fails closed on the faults it can block, the harness trusts the hook (Codex), the
 * hub is reachable, and when a request last came through.
 */
import { z } from 'zod'

/** One check: ok (true), broken (false) or not applicable / not known (null), in words, with the fix. */
export const GateCheckSchema = z.object({
  ok: z.boolean().nullable(),
  text: z.string(),
  fix: z.string().nullable()
})
/** One check of a gate. */
export type GateCheck = z.infer<typeof GateCheckSchema>

/** The checks of a gate, in the order they are shown. */
export const GATE_CHECKS = ['installed', 'starts', 'fails_closed', 'trust', 'hub'] as const
/** The name of one check. */
export type GateCheckName = (typeof GATE_CHECKS)[number]

/** One installed gate's health. */
export const GateHealthSchema = z.object({
  /** Stable: harness, settings file and event. */
  key: z.string(),
  harness: z.string(),
  /** As the operator reads it: "Codex". */
  label: z.string(),
  file: z.string(),
  event: z.string(),
  /** Codex's install mode (interactive, exec, both), when recorded. */
  mode: z.string().nullable(),
  agent: z.string().nullable(),
  command: z.string().nullable(),
  checks: z.object(Object.fromEntries(GATE_CHECKS.map((c) => [c, GateCheckSchema])) as Record<GateCheckName, typeof GateCheckSchema>),
  /** The hub the gate asks through, as chosen for it. */
  hub: z.string().nullable(),
  /** When the last request of its agent reached that hub (ISO), or null. */
  last_request: z.string().nullable(),
  /** Every applicable check passed. */
  ok: z.boolean(),
  /** The first failing check, in words, and its fix. */
  problem: z.string().nullable(),
  fix: z.string().nullable(),
  /** Since when the gate is in this state (ISO). */
  since: z.string()
})
/** One installed gate's health. */
export type GateHealth = z.infer<typeof GateHealthSchema>

/** Every gate of a home, as last checked. */
export const GatesReportSchema = z.object({
  gates: z.array(GateHealthSchema),
  /** When they were checked (ISO), or null before the first check. */
  at: z.string().nullable(),
  /** A check is running now. */
  checking: z.boolean()
})
/** Every gate of a home, as last checked. */
export type GatesReport = z.infer<typeof GatesReportSchema>
