import { ImportCorruptError, ImportTruncatedError, ImportWrongPassphraseError } from './errors'

/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256; ~0.2–0.5 s on a laptop, paid once per share and per open. */
export const PBKDF2_ITERATIONS = 600_000
/** An opener refuses more: a crafted link must not make the tab derive keys for minutes. */
const MAX_ITERATIONS = 5_000_000
const SALT_BYTES = 16
const IV_BYTES = 12
const TAG_BYTES = 16
/** salt, iv, iterations (u32), ciphertext length (u32). */
const HEADER_BYTES = SALT_BYTES + IV_BYTES + 8

/** Bytes an encrypted envelope adds to its plaintext, for the size meter (known without deriving a key). */
export const ENCRYPTION_OVERHEAD = HEADER_BYTES + TAG_BYTES

export interface EncryptOptions {
  iterations?: number
  /** Injected for deterministic tests; WebCrypto's random source by default. */
  random?: (bytes: Uint8Array) => void
}

async function deriveKey(passphrase: string, salt: Uint8Array, iterations: number, usage: KeyUsage): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  )
}

/**
 * AES-256-GCM under a key derived from the passphrase. The envelope carries everything the opener needs but the
 * passphrase: `salt(16) · iv(12) · iterations(u32) · length(u32) · ciphertext+tag`. The length lets a cut-off
 * link be told apart from a wrong passphrase, which GCM alone cannot do.
 */
export async function encryptBytes(plain: Uint8Array, passphrase: string, options: EncryptOptions = {}): Promise<Uint8Array> {
  const random = options.random ?? ((bytes: Uint8Array) => crypto.getRandomValues(bytes as Uint8Array<ArrayBuffer>))
  const iterations = options.iterations ?? PBKDF2_ITERATIONS
  const salt = new Uint8Array(SALT_BYTES)
  const iv = new Uint8Array(IV_BYTES)
  random(salt)
  random(iv)
  const key = await deriveKey(passphrase, salt, iterations, 'encrypt')
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain as Uint8Array<ArrayBuffer>),
  )
  const out = new Uint8Array(HEADER_BYTES + sealed.length)
  out.set(salt, 0)
  out.set(iv, SALT_BYTES)
  const view = new DataView(out.buffer)
  view.setUint32(SALT_BYTES + IV_BYTES, iterations)
  view.setUint32(SALT_BYTES + IV_BYTES + 4, sealed.length)
  out.set(sealed, HEADER_BYTES)
  return out
}

export async function decryptBytes(envelope: Uint8Array, passphrase: string): Promise<Uint8Array> {
  if (envelope.length < HEADER_BYTES) throw new ImportTruncatedError('the encryption header is incomplete')
  const view = new DataView(envelope.buffer, envelope.byteOffset, envelope.byteLength)
  const iterations = view.getUint32(SALT_BYTES + IV_BYTES)
  const length = view.getUint32(SALT_BYTES + IV_BYTES + 4)
  if (iterations < 1 || iterations > MAX_ITERATIONS) throw new ImportCorruptError('impossible key derivation settings')
  if (length < TAG_BYTES) throw new ImportCorruptError('impossible encrypted length')
  const sealed = envelope.subarray(HEADER_BYTES)
  if (sealed.length < length) throw new ImportTruncatedError(`${sealed.length} of ${length} encrypted bytes`)
  if (sealed.length > length) throw new ImportCorruptError('data after the encrypted content')
  const salt = envelope.slice(0, SALT_BYTES)
  const iv = envelope.slice(SALT_BYTES, SALT_BYTES + IV_BYTES)
  const key = await deriveKey(passphrase, salt, iterations, 'decrypt')
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed.slice()))
  } catch {
    throw new ImportWrongPassphraseError()
  }
}
