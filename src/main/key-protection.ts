/**
 * The operator's signing key in the OS keychain: Electron's safeStorage (Keychain on macOS, DPAPI
 * on Windows, the Secret Service or KWallet on Linux) wraps the private key in Muster's home, so
 * a process that copies the file gets nothing usable. Where safeStorage has no real keychain (Linux
 * without one answers `basic_text`, a fixed key) the key stays a 0600 file: wrapping it there would
 * only look safer. Logic only; `index.ts` passes Electron's `safeStorage`.
 */
import type { KeyProtector } from '../core/approvals'

/** The part of Electron's `safeStorage` used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(text: string): Buffer
  decryptString(data: Buffer): string
  /** Linux only: `basic_text`, `gnome_libsecret`, `kwallet`..., or `unknown` before the app is ready. */
  getSelectedStorageBackend?(): string
}

/** How the key file names this protection (`muster keys` shows it). */
export const KEYCHAIN_PROTECTION = 'the OS keychain (Electron safeStorage)'

/** A protector backed by the OS keychain, or null where there is no real one. */
export function keychainProtector(safeStorage: SafeStorageLike, platform: NodeJS.Platform): KeyProtector | null {
  let available = false
  try {
    available = safeStorage.isEncryptionAvailable()
  } catch {
    available = false
  }
  if (!available) return null
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown'
    if (backend === 'basic_text' || backend === 'unknown') return null
  }
  return {
    name: KEYCHAIN_PROTECTION,
    protect: (secret) => safeStorage.encryptString(secret).toString('base64'),
    unprotect: (data) => safeStorage.decryptString(Buffer.from(data, 'base64'))
  }
}
