/**
 * The invoke domain's face: invocation tags, chains and loop prevention. Code outside
 * src/core/invoke imports only this.
 */
export { ASSUMPTION_LINE, blockedLine, checkInvocation, effectiveChain, isCritic } from './rules'
export { assertInvocationsAllowed, checkText, scanText } from './scan'
export { isValidRole, parseChain } from './tags'
