/**
 * The next automatic directive number (spec section 4 "Sending": one more than the largest S-id
 * seen), made robust against a stray number: one `S9999` line among `S0xx` ids, or a taken number,
 * must not stop the numbering of a whole project. The numbers in use form a sequence from the
 * lowest up, as long as no step jumps more than `NUMBER_JUMP`; the next number is the first free
 * one above the top of that sequence, else the first free one at all. The id bound stays: numbers
 * end at `MAX_DIRECTIVE_NUMBER`, and only when every number up to it is taken are they used up.
 */
import { MAX_DIRECTIVE_NUMBER } from '../../shared/directive-id'

/** A step this large between two numbers in use is not followed (S9999 after S048). */
export const NUMBER_JUMP = 1000

/** The top of the sequence the numbers in use form (0 when none). */
export function sequenceTop(used: Iterable<number>): number {
  const sorted = [...new Set([...used].filter((n) => Number.isInteger(n) && n > 0 && n <= MAX_DIRECTIVE_NUMBER))].sort((a, b) => a - b)
  let top = 0
  for (const n of sorted) {
    if (top > 0 && n - top > NUMBER_JUMP) break
    top = n
  }
  return top
}

/**
 * The next number for an automatic id: at least `atLeast`, not in `used`, not refused by `skip`
 * (a number this target already received from elsewhere); null when every number is taken.
 */
export function nextDirectiveNumber(used: Iterable<number>, atLeast = 1, skip: (n: number) => boolean = () => false): number | null {
  const taken = new Set(used)
  const free = (n: number): boolean => !taken.has(n) && !skip(n)
  for (let n = Math.max(atLeast, sequenceTop(taken) + 1); n <= MAX_DIRECTIVE_NUMBER; n++) if (free(n)) return n
  for (let n = 1; n <= MAX_DIRECTIVE_NUMBER; n++) if (free(n)) return n
  return null
}

/** A directive number as an id (`S` + at least 3 digits). */
export function directiveIdOf(n: number): string {
  return `S${String(n).padStart(3, '0')}`
}
