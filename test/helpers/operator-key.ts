/** A Muster home's operator key for tests: signs decisions and rules, and trusts itself. */
import { OperatorKeys } from '../../src/core/approvals/operator-keys'
import { tmpDir } from './tmp'

/** Makes (or opens) the operator key of `home` (a fresh folder by default). */
export function testKeys(home = tmpDir()) {
  const keys = new OperatorKeys(home)
  keys.ensure()
  const signer = keys.signer()
  return { home, keys, signer, trust: keys.decisionTrust(), rules: { trust: () => keys.decisionTrust(), signer: () => signer } }
}
