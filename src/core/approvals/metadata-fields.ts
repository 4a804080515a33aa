/** Reading an approval event's metadata, which any hub writer may have filled with any JSON. */

/** The text at `key`, or `fallback` when it is missing or not text. */
export function textField(metadata: Record<string, unknown>, key: string, fallback = ''): string {
  const v = metadata[key]
  return typeof v === 'string' ? v : fallback
}

/** The value at `key` when it is one of `values`, else null. */
export function oneOfField<T extends string>(metadata: Record<string, unknown>, key: string, values: readonly T[]): T | null {
  const v = metadata[key]
  return typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : null
}
