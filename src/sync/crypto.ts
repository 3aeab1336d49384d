import { defineError } from '../core/errors'

/*
 * The sync key and what it seals (docs/sync.md, "Keys"). WebCrypto only: the same code runs in the worker and in
 * Node's tests, and the key never leaves a CryptoKey that cannot be exported.
 */

/** OWASP's 2023 figure for PBKDF2-HMAC-SHA-256; a guess at a passphrase costs this many hashes. */
export const PBKDF2_ITERATIONS = 600_000
/** Fewer iterations than this are refused from a server: a key check that asks for less would make guessing cheap. */
export const MINIMUM_ITERATIONS = 100_000
const SALT_BYTES = 16
const IV_BYTES = 12
/** The plain text of the key check: what a right passphrase decrypts it to. */
const KEY_CHECK_TEXT = 'tabcode sync key check v1'

export const SyncPassphraseError = defineError('SyncPassphraseError', () => ({
  message: 'The sync passphrase does not match the one this sync database was set up with. Nothing was read or written.',
  data: {},
}))

export const SyncKeyCheckError = defineError('SyncKeyCheckError', (iterations: number) => ({
  message: `The sync database asks for a key derived with only ${iterations} iterations; tabcode refuses a key that cheap to guess.`,
  data: { iterations },
}))

export const SyncDecryptError = defineError('SyncDecryptError', (id: string) => ({
  message: `The server's document ${id} does not decrypt with the sync key: it was changed, moved, or written with another key.`,
  data: { id },
}))

/** The parameters a key is derived with, stored on the server beside the key check. */
export interface KeyParameters {
  salt: string
  iterations: number
}

/** Ciphertext as the server stores it. */
export interface Sealed {
  iv: string
  data: string
}

export function newKeyParameters(iterations = PBKDF2_ITERATIONS): KeyParameters {
  return { salt: toBase64(crypto.getRandomValues(new Uint8Array(SALT_BYTES))), iterations }
}

/** The two keys one passphrase gives: one seals rows, the other names the documents whose ids must not say what they hold. */
export interface SyncKeys {
  /** AES-GCM-256: every document's content. */
  content: CryptoKey
  /** HMAC-SHA-256: the ids of files, blobs and settings and each message's and part's session group (`keyedHash`). */
  ids: CryptoKey
}

/**
 * Derives both keys from the passphrase: one slow PBKDF2-SHA-256 run gives 256 bits, and HKDF-SHA-256 splits them
 * into the content key and the id key under different labels (RFC 5869's "info"), so neither key tells anything
 * about the other and a guess still costs the full PBKDF2 run. Neither key can be exported.
 */
export async function deriveKeys(passphrase: string, parameters: KeyParameters): Promise<SyncKeys> {
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: fromBase64(parameters.salt), iterations: parameters.iterations }, material, 256)
  const root = await crypto.subtle.importKey('raw', bits, 'HKDF', false, ['deriveKey'])
  const hkdf = (info: string) => ({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode(info) })
  const content = await crypto.subtle.deriveKey(hkdf('tabcode sync content v1'), root, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
  const ids = await crypto.subtle.deriveKey(hkdf('tabcode sync ids v1'), root, { name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign'])
  return { content, ids }
}

/** The content key alone (`deriveKeys`). */
export async function deriveKey(passphrase: string, parameters: KeyParameters): Promise<CryptoKey> {
  return (await deriveKeys(passphrase, parameters)).content
}

/**
 * A keyed hash of `text` (HMAC-SHA-256 under the id key), the first 32 hex: equal inputs give equal ids on every
 * device with the passphrase, and the server, without the key, cannot test a guess (a file name, a known file's
 * content hash) against it.
 */
export async function keyedHash(key: CryptoKey, text: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text))
  return [...new Uint8Array(mac)].map((byte) => byte.toString(16).padStart(2, '0')).join('').slice(0, 32)
}

/**
 * Seals `plain` for the document `id`: a fresh random IV each time, and the id as additional data, so a ciphertext
 * copied under another id fails to open.
 */
export async function seal(key: CryptoKey, id: string, plain: string): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(id) }, key, new TextEncoder().encode(plain))
  return { iv: toBase64(iv), data: toBase64(new Uint8Array(data)) }
}

/** Opens what `seal` sealed for `id`, or throws `SyncDecryptError` (wrong key, another id, a changed byte). */
export async function open(key: CryptoKey, id: string, sealed: Sealed): Promise<string> {
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: new TextEncoder().encode(id) }, key, fromBase64(sealed.data))
    return new TextDecoder().decode(plain)
  } catch {
    throw new SyncDecryptError(id)
  }
}

/** The key check for a new sync database: a fixed text sealed under the key, for the document `id`. */
export async function makeKeyCheck(key: CryptoKey, id: string): Promise<Sealed> {
  return await seal(key, id, KEY_CHECK_TEXT)
}

/** Throws `SyncPassphraseError` unless `key` opens the key check. */
export async function verifyKeyCheck(key: CryptoKey, id: string, check: Sealed): Promise<void> {
  const plain = await open(key, id, check).catch(() => undefined)
  if (plain !== KEY_CHECK_TEXT) throw new SyncPassphraseError()
}

/** SHA-256 of a text, hex. */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}

export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  return btoa(binary)
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index)
  return bytes
}
