/**
 * Vitest global setup: says once per run when the suites against the real upstream files
 * (`../shared/fixtures`, see test/helpers/fixtures.ts) are skipped because the folder is absent.
 * They run wherever it exists (CI lays `shared/` out beside the repository).
 */
import { HAS_SHARED_FIXTURES, SHARED_FIXTURES } from '../helpers/fixtures'

/** Prints the one skip line; nothing when the upstream fixtures are present. */
export default function setup(): void {
  // vitest runs a global setup once for the run and once per project (vitest.config.ts): one line
  if (!HAS_SHARED_FIXTURES && !process.env.MUSTER_UPSTREAM_NOTICE_SAID) {
    process.env.MUSTER_UPSTREAM_NOTICE_SAID = '1'
    console.log(
      `upstream-file suites skipped: ${SHARED_FIXTURES} not found (CI puts shared/ beside the repository; or set MUSTER_SHARED_DIR)`
    )
  }
}
