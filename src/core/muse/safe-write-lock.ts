/**
 * This process's lock per edited file: the edits of one file in a process take turns for the read
 * and swap, and late agent bytes are merged between them (`safe-write-keeper.ts`).
 */
const locks = new Map<string, Promise<void>>()

/** Runs `fn` while holding this process's lock on `path`. */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(path) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((r) => (release = r))
  const chain = prev.then(() => mine)
  locks.set(path, chain)
  await prev
  try {
    return await fn()
  } finally {
    release()
    if (locks.get(path) === chain) locks.delete(path)
  }
}
