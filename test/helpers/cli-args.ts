/** Argument lists of `muster` commands that many CLI tests give, kept free of imports so a built-CLI test can use them too. */

/** The arguments of `muster events append` of a `chat.message` (stream `s`, room `rooms`) from FROM, then EXTRA. */
export function chatAppendArgs(from: string, ...extra: string[]): string[] {
  return ['events', 'append', '--type', 'chat.message', '--stream', 's', '--room', 'rooms', '--from-agent', from, ...extra]
}

/**
 * The arguments of `muster events append` by which agent mac-claude tries to write an approval event
 * of TYPE (stream project/muse, room approvals) in thread CORRELATION, then EXTRA.
 */
export function approvalAppendArgs(type: string, correlation: string, ...extra: string[]): string[] {
  return [
    'events',
    'append',
    '--type',
    type,
    '--stream',
    'project/muse',
    '--room',
    'approvals',
    '--from-agent',
    'mac-claude',
    '--correlation-id',
    correlation,
    ...extra
  ]
}
