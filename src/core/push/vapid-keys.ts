/**
 * The home's VAPID key pair (RFC 8292): made once per home with the maintained `web-push` library
 * and kept beside the operator's key, `keys/vapid.json` (0600). Push services tie a subscription to
 * the public key it was made with, so the pair is never replaced behind the operator's back.
 */
import { chmodSync, existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import webpush from 'web-push'
import { ApiError } from '../../shared/api-error'
import { KEYS_DIR } from '../approvals'
import { makeDirSync } from '../make-dir'

/** The key file in a Muster home's `keys/`. */
export const VAPID_FILE = 'vapid.json'

/** A VAPID key pair: the P-256 public key (uncompressed point) and private scalar, base64url. */
export interface VapidPair {
  publicKey: string
  privateKey: string
}

interface VapidFile extends VapidPair {
  v: 1
  created_at: string
}

const B64U = /^[A-Za-z0-9_-]+$/

/** Reads the home's pair, or null before it is made; a damaged file is an error naming it. */
export function readVapid(home: string): VapidPair | null {
  const file = join(home, KEYS_DIR, VAPID_FILE)
  if (!existsSync(file)) return null
  let o: Partial<VapidFile>
  try {
    o = JSON.parse(readFileSync(file, 'utf8')) as Partial<VapidFile>
  } catch (err) {
    throw new ApiError(`cannot read ${file}: ${(err as Error).message}`, 'internal')
  }
  if (typeof o.publicKey !== 'string' || !B64U.test(o.publicKey) || typeof o.privateKey !== 'string' || !B64U.test(o.privateKey))
    throw new ApiError(`${file} is not a Muster VAPID key file`, 'internal')
  return { publicKey: o.publicKey, privateKey: o.privateKey }
}

/** The home's pair, made now if there is none (a pair made at the same moment by another process wins). */
export function ensureVapid(home: string): VapidPair {
  const have = readVapid(home)
  if (have) return have
  const dir = join(home, KEYS_DIR)
  const file = join(dir, VAPID_FILE)
  const pair = webpush.generateVAPIDKeys()
  const body: VapidFile = { v: 1, created_at: new Date().toISOString(), publicKey: pair.publicKey, privateKey: pair.privateKey }
  makeDirSync(dir, { mode: 0o700 })
  const tmp = `${file}.${process.pid}.new`
  writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 })
  chmodSync(tmp, 0o600)
  try {
    linkSync(tmp, file)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  } finally {
    unlinkSync(tmp)
  }
  return readVapid(home)!
}
