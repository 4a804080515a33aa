/** The shape upstream MemPalace gives an event (spec/hub-logstream.md, "The event envelope"), stated once for the tests. */

/** An event envelope's keys, in the order upstream returns them. */
export const ENVELOPE_KEYS = [
  'id',
  'seq',
  'origin_replica',
  'origin_seq',
  'hlc',
  'type',
  'stream',
  'room',
  'topic',
  'from_agent',
  'to_agent',
  'correlation_id',
  'branch',
  'base_commit',
  'status',
  'artifact_ids',
  'body',
  'created_at',
  'metadata'
] as const
