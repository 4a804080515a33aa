/**
 * The WebAuthn library's assertion check (@simplewebauthn/server), imported with `import()` by
 * `verify-assertion.ts` only when a proof is checked: in the hook's CommonJS bundle it is a file of
 * its own (`lazy-webauthn-lib.cjs`), built from the library's ES modules with its unused
 * attestation and certificate code left out (scripts/build-cli.mjs), so an allowlisted call never
 * loads it and a decided call loads only what an assertion needs. The throwaway proof that warms
 * the check up is part of it, so it uses the same copy of the library as the real check.
 */
export { verifyAuthenticationResponse } from '@simplewebauthn/server'
export { throwawayAssertion } from './throwaway-assertion'
