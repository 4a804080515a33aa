/**
 * Connecting agents: every harness Muster knows, whether its command is on this machine (and which
 * release), whether Muster's approvals gate and session hooks are in its settings, and the gate's
 * health; the hub the gates ask through; what an install or removal did.
 */
import { z } from 'zod'
import { GateHealthSchema } from './gates-types'

/** One harness on this machine, as the Connect screen and `muster connect` show it. */
export const HarnessConnectionSchema = z.object({
  /** The harness id (`claude-code`) and the name `muster connect` takes (`claude`). */
  harness: z.string(),
  name: z.string(),
  /** As the operator reads it: "Claude Code". */
  label: z.string(),
  /** The command looked for on PATH, where it was found (null: not found) and its version. */
  bin: z.string(),
  path: z.string().nullable(),
  version: z.string().nullable(),
  /** The release Muster's adapter was checked against. */
  tested: z.string(),
  /** The settings (or plugin) file the gate and session hooks go into. */
  settings: z.string(),
  /** Muster's approvals gate in that file: its events (empty: not installed) and the agent it reports. */
  gate: z.object({ installed: z.boolean(), events: z.array(z.string()), agent: z.string().nullable() }),
  /** Muster's session hooks in that file (`available`: the harness has lifecycle hooks). */
  session: z.object({ available: z.boolean(), installed: z.boolean(), events: z.array(z.string()) }),
  /** The gate's health, one row per event, as last checked (empty before a check or without a gate). */
  health: z.array(GateHealthSchema)
})
/** One harness on this machine. */
export type HarnessConnection = z.infer<typeof HarnessConnectionSchema>

/** The hub a gate installed without `--hub` asks through. */
export const ConnectHubSchema = z.object({
  name: z.string(),
  location: z.string(),
  /** Why it is the one (`registered first`, `~/.mempalace/palace`, ...). */
  why: z.string(),
  /** Its hub file exists (or it is a hub server): a gate can ask through it. */
  exists: z.boolean()
})
/** The hub the gates ask through. */
export type ConnectHub = z.infer<typeof ConnectHubSchema>

/** Every harness and the hub. */
export const ConnectListSchema = z.object({
  harnesses: z.array(HarnessConnectionSchema),
  hub: ConnectHubSchema,
  /** The agent id an install uses when none is given, per harness name. */
  default_agents: z.record(z.string(), z.string()),
  /** When the health rows were checked (ISO), or null. */
  checked_at: z.string().nullable()
})
/** Every harness and the hub. */
export type ConnectList = z.infer<typeof ConnectListSchema>

/** What one settings edit did. */
export const ConnectEditSchema = z.object({
  file: z.string(),
  events: z.array(z.string()),
  action: z.enum(['installed', 'updated', 'unchanged', 'removed', 'absent'])
})
/** What one settings edit did. */
export type ConnectEdit = z.infer<typeof ConnectEditSchema>

/** What `connect.install` or `connect.remove` did, and the harness afterwards. */
export const ConnectResultSchema = z.object({
  connection: HarnessConnectionSchema,
  gate: ConnectEditSchema,
  /** The session hooks' edit (null: the harness has none). */
  session: ConnectEditSchema.nullable(),
  /** What the operator should know (trust, versions). */
  notes: z.array(z.string())
})
/** What an install or removal did. */
export type ConnectResult = z.infer<typeof ConnectResultSchema>

/** The test request sent into the inbox. */
export const ConnectTestSchema = z.object({
  hub: z.string(),
  id: z.string(),
  correlation_id: z.string(),
  agent: z.string(),
  summary: z.string()
})
/** The test request sent into the inbox. */
export type ConnectTest = z.infer<typeof ConnectTestSchema>
