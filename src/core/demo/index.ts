/**
 * The demo domain's face: a realistic fleet (projects, role files, git history, a live hub) for
 * `muster demo` and first-run screens. Code outside src/core/demo imports only this.
 */
export { addDemoRule } from './content/hub-approvals'
export { DEMO_DYA_TEST, createDemoFleet } from './demo-fleet'
