/**
 * How big the stress suites run. `npm test` runs them at a size that still races every write
 * pattern against Muster's edits many times over, so a newcomer's `npm test` stays within its
 * time; `MUSTER_STRESS=full` (set by `.ci/run`) runs them at full size, where rarer interleavings
 * get their chance.
 */

/** True when the stress suites run at full size (`MUSTER_STRESS=full`). */
export const FULL_STRESS = process.env.MUSTER_STRESS === 'full'

/** `full` under `MUSTER_STRESS=full`, else `quick`. */
export function stressSize(full: number, quick: number): number {
  return FULL_STRESS ? full : quick
}
