/**
 * What a hook trusts for presence: an admin-owned gate's file (`--gate FILE`, checked to be
 * root-owned) or, for a gate in the user's own settings, the home's `presence.json`. Anything that
 * cannot be read fails closed: presence for every allow and no authenticator, so nothing is
 * allowed (the harness's own prompt or a deny), never a silent fallback to "off".
 */
import { emptyPresence, readPresence, type PresenceConfig } from './presence-config'
import { readGateFile } from './gate-file'

/** The presence a hook enforces. */
export interface HookPresence {
  config: PresenceConfig
  /** The file it came from (the home's presence.json, or the gate file). */
  source: string
  managed: boolean
  /** An admin-owned gate's operator keys (null for a gate in the user's settings). */
  operatorKeys: string[] | null
  /** An admin-owned gate's trust ledger. */
  ledger: string | null
}

/** A configuration that allows nothing: every allow needs presence, and no authenticator is trusted. */
function allowsNothing(): PresenceConfig {
  return { ...emptyPresence(), policy: 'every-allow', risky: [] }
}

/** Loads the presence a hook enforces (see the file comment); `warn` gets one line when it fails closed. */
export function loadHookPresence(home: string, gateFile: string | undefined, warn: (line: string) => void): HookPresence {
  if (gateFile) {
    try {
      const g = readGateFile(gateFile)
      return { config: g.presence, source: gateFile, managed: true, operatorKeys: g.operator_keys, ledger: g.ledger }
    } catch (err) {
      warn(`muster approve-hook: ${(err as Error).message}; nothing is allowed until it is fixed`)
      return { config: allowsNothing(), source: gateFile, managed: true, operatorKeys: [], ledger: null }
    }
  }
  try {
    return { config: readPresence(home), source: `${home}/presence.json`, managed: false, operatorKeys: null, ledger: null }
  } catch (err) {
    warn(`muster approve-hook: ${(err as Error).message}; nothing is allowed until it is fixed`)
    return { config: allowsNothing(), source: `${home}/presence.json`, managed: false, operatorKeys: null, ledger: null }
  }
}
