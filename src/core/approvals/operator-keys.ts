/**
 * The operator's signing key and the operator keys this Muster trusts, in its home:
 * - `keys/operator.json` (0600): the public key id and the private key, either as PKCS#8 (base64)
 *   or wrapped by a `KeyProtector` (the desktop app's is Electron's safeStorage: the OS keychain);
 * - `keys/trusted.json`: other operators' public keys (`muster keys trust`), e.g. a remote
 *   operator deciding through a hub server.
 * The key is made on first use (the first decision or rule). Only the public side is read by the
 * hook (`trustedKeyIds`): the hook never touches the private key.
 */
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import { chmodSync, existsSync, linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ApiError } from '../../shared/api-error'
import { makeDirSync } from '../make-dir'
import { KEY_ID_RE, DecisionTrust, type DecisionSigner, type SignatureRef } from './decision-trust'

/** Folder of the key files in a Muster home. */
export const KEYS_DIR = 'keys'
const OPERATOR_FILE = 'operator.json'
const TRUSTED_FILE = 'trusted.json'

/** Wraps the private key for storage (e.g. the OS keychain through Electron's safeStorage). */
export interface KeyProtector {
  /** Shown by `muster keys`: where the key is kept. */
  readonly name: string
  protect(secret: string): string
  unprotect(data: string): string
}

interface OperatorFile {
  v: 1
  key: string
  created_at: string
  private: { pkcs8: string } | { protected_by: string; data: string }
}

/** A trusted operator key. */
export interface TrustedKey {
  key: string
  name: string
  added_at: string
}

/** The id of a public key: `ed25519:` + its raw 32 bytes in base64url. */
function keyIdOf(pub: KeyObject): string {
  const der = pub.export({ format: 'der', type: 'spki' })
  return `ed25519:${der.subarray(der.length - 32).toString('base64url')}`
}

/** Writes a small file through a temporary name (never half-written), mode 0600. */
function writeSecretFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, text, { mode: 0o600 })
  chmodSync(tmp, 0o600)
  renameSync(tmp, file)
}

/** Reads a JSON file, or null when absent; a damaged file is an error naming it. */
function readJson(file: string): unknown {
  if (!existsSync(file)) return null
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown
  } catch (err) {
    throw new ApiError(`cannot read ${file}: ${(err as Error).message}`, 'invalid_input')
  }
}

/** The operator's key of one home: its id, signing, and whether (and how) it is protected. */
export class OperatorKeys {
  private cached: { key: string; priv: KeyObject } | null = null

  constructor(
    readonly home: string,
    private readonly protector: KeyProtector | null = null
  ) {}

  private get dir(): string {
    return join(this.home, KEYS_DIR)
  }

  private get file(): string {
    return join(this.dir, OPERATOR_FILE)
  }

  private readFile(): OperatorFile | null {
    const o = readJson(this.file) as OperatorFile | null
    if (o && (typeof o.key !== 'string' || !KEY_ID_RE.test(o.key) || !o.private))
      throw new ApiError(`${this.file} is not a Muster operator key file`, 'invalid_input')
    return o
  }

  /** The public key id, or null before the key exists. */
  publicKey(): string | null {
    return this.readFile()?.key ?? null
  }

  /** Where the private key is kept: `file`, or the protector's name (`OS keychain`). */
  storage(): string | null {
    const o = this.readFile()
    if (!o) return null
    return 'pkcs8' in o.private ? `file ${this.file} (0600)` : o.private.protected_by
  }

  /** Creates the key if there is none; returns its id. */
  ensure(): string {
    const have = this.readFile()
    if (have) return have.key
    const { publicKey, privateKey } = generateKeyPairSync('ed25519')
    const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')
    const key = keyIdOf(publicKey)
    const file: OperatorFile = {
      v: 1,
      key,
      created_at: new Date().toISOString(),
      private: this.protector ? { protected_by: this.protector.name, data: this.protector.protect(pkcs8) } : { pkcs8 }
    }
    makeDirSync(this.dir, { mode: 0o700 })
    // link, not rename: a key made at the same moment by another process wins; ours is dropped
    const tmp = `${this.file}.${process.pid}.new`
    writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
    try {
      linkSync(tmp, this.file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    } finally {
      unlinkSync(tmp)
    }
    return this.readFile()!.key
  }

  /** Wraps a plain key with the protector (the desktop app at start); true when it changed the file. */
  protect(): boolean {
    const o = this.readFile()
    if (!o || !this.protector || !('pkcs8' in o.private)) return false
    const data = this.protector.protect(o.private.pkcs8)
    if (this.protector.unprotect(data) !== o.private.pkcs8) return false
    writeSecretFile(this.file, `${JSON.stringify({ ...o, private: { protected_by: this.protector.name, data } }, null, 2)}\n`)
    this.cached = null
    return true
  }

  private privateKey(): { key: string; priv: KeyObject } {
    if (this.cached) return this.cached
    const key = this.ensure()
    const o = this.readFile()!
    let pkcs8: string
    if ('pkcs8' in o.private) pkcs8 = o.private.pkcs8
    else if (this.protector && this.protector.name === o.private.protected_by) pkcs8 = this.protector.unprotect(o.private.data)
    else
      throw new ApiError(
        `the operator's signing key is kept in ${o.private.protected_by} by the desktop app; decide there (this process cannot unlock it)`,
        'conflict'
      )
    this.cached = { key, priv: createPrivateKey({ key: Buffer.from(pkcs8, 'base64'), format: 'der', type: 'pkcs8' }) }
    return this.cached
  }

  /** The signer of decisions and rules (creates the key on first use). */
  signer(): DecisionSigner {
    const self = this.privateKey()
    return {
      key: self.key,
      sign: (payload: string): SignatureRef => ({ key: self.key, sig: sign(null, Buffer.from(payload), self.priv).toString('base64url') })
    }
  }

  /** Other operators' keys this home trusts. */
  trusted(): TrustedKey[] {
    return readTrusted(this.home)
  }

  /** Trusts another operator's key (e.g. a remote operator); replaces its name when known. */
  trust(key: string, name: string): TrustedKey {
    if (!KEY_ID_RE.test(key))
      throw new ApiError(`not an operator key id: '${key}' (expected ed25519:<43 base64url characters>)`, 'invalid_input')
    const list = this.trusted().filter((k) => k.key !== key)
    const entry = { key, name: name.trim() || 'operator', added_at: new Date().toISOString() }
    makeDirSync(this.dir, { mode: 0o700 })
    writeSecretFile(join(this.dir, TRUSTED_FILE), `${JSON.stringify({ keys: [...list, entry] }, null, 2)}\n`)
    return entry
  }

  /** Stops trusting a key; false when it was not trusted. */
  untrust(key: string): boolean {
    const list = this.trusted()
    const rest = list.filter((k) => k.key !== key)
    if (rest.length === list.length) return false
    writeSecretFile(join(this.dir, TRUSTED_FILE), `${JSON.stringify({ keys: rest }, null, 2)}\n`)
    return true
  }

  /** The trust of this home: its own key and the trusted ones. */
  decisionTrust(): DecisionTrust {
    return new DecisionTrust(trustedKeyIds(this.home))
  }
}

function readTrusted(home: string): TrustedKey[] {
  const o = readJson(join(home, KEYS_DIR, TRUSTED_FILE)) as { keys?: unknown } | null
  if (!o || !Array.isArray(o.keys)) return []
  return o.keys.filter((k): k is TrustedKey => !!k && typeof (k as TrustedKey).key === 'string' && KEY_ID_RE.test((k as TrustedKey).key))
}

/** Every key id a home trusts: its own operator key and `keys/trusted.json` (public parts only). */
export function trustedKeyIds(home: string): string[] {
  const own = (() => {
    try {
      const o = readJson(join(home, KEYS_DIR, OPERATOR_FILE)) as { key?: unknown } | null
      return typeof o?.key === 'string' && KEY_ID_RE.test(o.key) ? [o.key] : []
    } catch {
      return []
    }
  })()
  let others: string[] = []
  try {
    others = readTrusted(home).map((k) => k.key)
  } catch {
    others = []
  }
  return [...own, ...others]
}
