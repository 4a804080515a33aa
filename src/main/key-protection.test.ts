import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../test/helpers/tmp'
import { OperatorKeys } from '../core/approvals'
import { DecisionTrust } from '../core/approvals'
import { KEYCHAIN_PROTECTION, keychainProtector, type SafeStorageLike } from './key-protection'

/** A stand-in keychain: XOR with a secret only it knows (as the OS keychain holds its key). */
function fakeKeychain(backend = 'gnome_libsecret', available = true): SafeStorageLike & { calls: number } {
  const k = 0x5a
  const self = {
    calls: 0,
    isEncryptionAvailable: () => available,
    encryptString: (t: string) => Buffer.from(Buffer.from(t).map((b) => b ^ k)),
    decryptString: (d: Buffer) => {
      self.calls++
      return Buffer.from(d.map((b) => b ^ k)).toString()
    },
    getSelectedStorageBackend: () => backend
  }
  return self
}

describe('the operator key in the OS keychain (safeStorage)', () => {
  it('no protector where there is no real keychain: unavailable, or Linux basic_text/unknown', () => {
    expect(keychainProtector(fakeKeychain('gnome_libsecret', false), 'darwin')).toBeNull()
    expect(keychainProtector(fakeKeychain('basic_text'), 'linux')).toBeNull()
    expect(keychainProtector(fakeKeychain('unknown'), 'linux')).toBeNull()
    expect(keychainProtector(fakeKeychain('kwallet5'), 'linux')?.name).toBe(KEYCHAIN_PROTECTION)
    expect(keychainProtector(fakeKeychain('basic_text'), 'darwin')?.name).toBe(KEYCHAIN_PROTECTION)
    const throwing = {
      ...fakeKeychain(),
      isEncryptionAvailable: () => {
        throw new Error('not ready')
      }
    }
    expect(keychainProtector(throwing, 'win32')).toBeNull()
  })

  it('wraps a plain key: the file no longer holds it, signing unwraps it, a process without the keychain cannot sign', () => {
    const home = tmpDir()
    const plain = new OperatorKeys(home)
    const id = plain.ensure()
    const pkcs8 = (JSON.parse(readFileSync(join(home, 'keys', 'operator.json'), 'utf8')) as { private: { pkcs8: string } }).private.pkcs8
    const chain = fakeKeychain()
    const wrapped = new OperatorKeys(home, keychainProtector(chain, 'darwin'))
    expect(wrapped.protect()).toBe(true)
    const text = readFileSync(join(home, 'keys', 'operator.json'), 'utf8')
    expect(text).not.toContain(pkcs8)
    expect(JSON.parse(text)).toMatchObject({ key: id, private: { protected_by: KEYCHAIN_PROTECTION } })
    expect(wrapped.storage()).toBe(KEYCHAIN_PROTECTION)
    const sig = wrapped.signer().sign('payload')
    expect(chain.calls).toBeGreaterThan(0)
    expect(new DecisionTrust([id]).check('payload', sig)).toEqual({ ok: true, key: id })
    expect(() => new OperatorKeys(home).signer()).toThrow(/kept in the OS keychain .* by the desktop app; decide there/)
    // wrapping twice changes nothing
    expect(wrapped.protect()).toBe(false)
  })

  it('a new key is made wrapped when a keychain is there', () => {
    const home = tmpDir()
    const keys = new OperatorKeys(home, keychainProtector(fakeKeychain(), 'win32'))
    const id = keys.ensure()
    expect(readFileSync(join(home, 'keys', 'operator.json'), 'utf8')).not.toContain('pkcs8')
    expect(new DecisionTrust([id]).check('x', keys.signer().sign('x')).ok).toBe(true)
  })
})
