/**
 * The outcome of checking whether a decision, a rule or a presence proof counts: trusted (by which
 * key, if signed) or not, and why. Its own file so the presence check and the signature check
 * can both answer in it without importing each other.
 */

/** What a check found: trusted (by which key, if signed) or not, and why. */
export type TrustVerdict = { ok: true; key: string | null } | { ok: false; why: string }
