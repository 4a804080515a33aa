/**
 * The rules domain's face: the agents' rules file Muster installs. Code outside src/core/rules
 * imports only this.
 */
export { installRules, installTarget, renderRules } from './rules'
