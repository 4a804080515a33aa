/**
 * The git domain's face: every git call Muster makes (argument arrays, timeouts, clear errors).
 * Code outside src/core/git imports only this.
 */
export { gitApply } from './apply'
export { catFileBatch, catFileCheck, type GitObject } from './batch'
export { isGitFailure } from './errors'
export { commitExists, defaultBranch, latestTag, listRefs, reachableFrom, remoteFetchSpecs, repoInfo, type RefEntry } from './repo'
export { git, gitText } from './run'
export {
  commitsBetween,
  hasBranch,
  headInfo,
  indexEntries,
  isAncestor,
  resolveCommit,
  restoreIndex,
  worktreeDiff,
  worktreeStatus,
  type HeadInfo
} from './worktree'
