/**
 * Rows out of sequence in a hub (issue 36): SQLite hands rowids out one after the other, so no
 * hub's row is ever numbered above 2^53 in turn. A row there was placed by its writer (or numbered
 * after such a row); one at the top of the range (2^63 - 1) means no later row can follow it, and
 * rows written after it are listed below it. The CLI and the dashboard mark such rows with this.
 */

/** True for an envelope `seq` above 2^53 (a row out of sequence). */
export function outOfSequence(seq: number): boolean {
  return seq > Number.MAX_SAFE_INTEGER
}

/** The short mark of a row out of sequence. */
export const OUT_OF_SEQUENCE = 'out of sequence'

/** What a row out of sequence means, in one sentence (tooltips, the event pane). */
export const OUT_OF_SEQUENCE_WHY =
  'Its writer placed it at a rowid above 2^53, which no hub reaches in turn; rows written after a row at the top of the range are listed below it.'
