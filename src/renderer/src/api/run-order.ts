/**
 * Keeps the newest copy of an apply run. A run's record reaches the screen two ways, the `patch.run`
 * pushes and the results of patch.apply / cancel / revert, and they can arrive out of order (the
 * apply call answers with the run as it started, while pushes of its later phases may already be
 * in). The revision says which copy is newer.
 */
import type { ApplyRun } from '../../../shared/api'

/** The copy to keep: `incoming` unless `current` is a newer revision of the same run. */
export function newerRun(current: ApplyRun | undefined, incoming: ApplyRun): ApplyRun {
  return current && current.id === incoming.id && current.revision > incoming.revision ? current : incoming
}
