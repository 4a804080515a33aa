/**
 * The faults a gate may meet between a harness and the operator (each harness says what it does
 * on each). Plain data, no schema library: the hooks' fast paths import it.
 */

/** A fault the gate may meet between the harness and the operator. */
export type GateFault = 'hub-unreachable' | 'build-missing' | 'hook-crash' | 'hook-timeout' | 'untrusted' | 'bad-input'
/** Every fault, in the order the README table lists them. */
export const GATE_FAULTS: readonly GateFault[] = [
  'hub-unreachable',
  'build-missing',
  'hook-crash',
  'hook-timeout',
  'untrusted',
  'bad-input'
]
