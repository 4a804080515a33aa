/**
 * A self-signed certificate for 127.0.0.1 made by openssl, valid one day, in a folder of its own:
 * for the TLS tests of `muster serve` and the push-service stand-in.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { tmpDir } from './tmp'

/** The certificate's and the key's files; the key an EC P-256 one, or RSA 2048 when asked. */
export function selfSignedFiles(kind: 'ec' | 'rsa' = 'ec'): { cert: string; key: string } {
  const dir = tmpDir()
  const cert = join(dir, 'cert.pem')
  const key = join(dir, 'key.pem')
  const newKey = kind === 'ec' ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'] : ['-newkey', 'rsa:2048']
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      ...newKey,
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1'
    ],
    { stdio: 'ignore' }
  )
  return { cert, key }
}
