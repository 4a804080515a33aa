/**
 * The MUSE part of the contract: directives, role files, memory, lint (spec/muse-role-files.md).
 */

/** Methods on role files, directives and memory. */
export const museMethods = {} as const

/** Events pushed about role files and memory. */
export const museEvents = {} as const
