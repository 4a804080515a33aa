/**
 * The mcp domain's face: the tools `muster mcp` serves. Code outside src/core/mcp imports only this.
 */
export { hubTools } from './hub-tools'
export { getRole, getStatus, listRoles, projectRoot, searchMemory, sendDirective, writeMemory, type ToolText } from './muse-tools'
