/**
 * The patches domain's face: patch verification, preflight, apply and the patch inbox. Code
 * outside src/core/patches imports only this.
 */
export { PatchService } from './patch-service'
