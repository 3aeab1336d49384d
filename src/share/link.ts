import { decodeBase64Url, encodeBase64Url, base64UrlLength } from './base64url'
import { checkJsonShape, checkTranscriptCounts } from './caps'
import { deflateRaw, inflateRawCapped } from './compress'
import { decryptBytes, encryptBytes, ENCRYPTION_OVERHEAD, type EncryptOptions } from './crypto'
import {
  ImportCorruptError,
  ImportInvalidError,
  ImportNewerVersionError,
  ImportPassphraseRequiredError,
  ImportTooLargeError,
  ImportTruncatedError,
  ShareTooLongError,
} from './errors'
import { SessionTranscriptSchema } from './format'
import { contentHash } from './hash'
import { IMPORT_LIMITS, MAX_LINK_CHARS } from './limits'
import { packTranscript, unpackTranscript } from './pack'
import { prepareForSharing, type PrepareOptions } from './prepare'
import type { Redaction } from './redact'
import { transcriptProblem, type SessionTranscript } from './transcript'
import { describeIssues } from '../core/errors'

/**
 * Share links put the whole session in the URL fragment, which browsers never send to a server:
 * `<app>#/share/v1.<base64url(length · deflate-raw(JSON of the packed transcript)))>`, or `v1e.` when encrypted
 * with a passphrase (the deflated bytes sealed with AES-GCM, see crypto.ts). The version is the packed form's; a
 * reader meeting a higher one says so instead of failing obscurely.
 */
export const LINK_VERSION = 1
export const SHARE_ROUTE = '#/share/'
const PLAIN_PREFIX = `v${LINK_VERSION}.`
const ENCRYPTED_PREFIX = `v${LINK_VERSION}e.`

export interface ShareLinkOptions extends PrepareOptions {
  passphrase?: string
  /** The page the link opens (origin and path, without a fragment). */
  base: string
  encryption?: EncryptOptions
}

export interface ShareLink {
  url: string
  chars: number
  redactions: Redaction[]
  shortened: number
  encrypted: boolean
}

function packedBytes(transcript: SessionTranscript, options: PrepareOptions) {
  const prepared = prepareForSharing(transcript, options)
  const json = JSON.stringify(packTranscript(prepared.transcript))
  return { ...prepared, compressed: deflateRaw(new TextEncoder().encode(json)) }
}

/**
 * A plain payload starts with its own length (u32, big-endian), so a link cut off while copying is reported as
 * truncated, whatever words the platform's decompressor would use (the encrypted envelope carries one too).
 */
const FRAME_BYTES = 4

function frame(compressed: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_BYTES + compressed.length)
  new DataView(out.buffer).setUint32(0, compressed.length)
  out.set(compressed, FRAME_BYTES)
  return out
}

function unframe(bytes: Uint8Array): Uint8Array {
  if (bytes.length < FRAME_BYTES) throw new ImportTruncatedError('the link ends before its content starts')
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0)
  const body = bytes.subarray(FRAME_BYTES)
  if (body.length < length) throw new ImportTruncatedError(`${body.length} of ${length} bytes`)
  if (body.length > length) throw new ImportCorruptError('data after the end of the content')
  return body
}

function withoutFragment(base: string): string {
  const hash = base.indexOf('#')
  return hash < 0 ? base : base.slice(0, hash)
}

/**
 * The link's length without making it: what the size meter shows as the user toggles options. Encryption adds a
 * fixed number of bytes, so the passphrase itself is not needed (nor the slow key derivation).
 */
export function measureShareLink(
  transcript: SessionTranscript,
  options: PrepareOptions & { encrypted?: boolean; base: string },
): { chars: number; limit: number; redactions: Redaction[]; shortened: number } {
  const { compressed, redactions, shortened } = packedBytes(transcript, options)
  const bytes = compressed.length + (options.encrypted ? ENCRYPTION_OVERHEAD : FRAME_BYTES)
  const prefix = options.encrypted ? ENCRYPTED_PREFIX : PLAIN_PREFIX
  const chars = withoutFragment(options.base).length + SHARE_ROUTE.length + prefix.length + base64UrlLength(bytes)
  return { chars, limit: MAX_LINK_CHARS, redactions, shortened }
}

/** Makes the link, or refuses with ShareTooLongError when it would be over the limit. */
export async function createShareLink(transcript: SessionTranscript, options: ShareLinkOptions): Promise<ShareLink> {
  const { compressed, redactions, shortened } = packedBytes(transcript, options)
  const encrypted = !!options.passphrase
  const payload = options.passphrase ? await encryptBytes(compressed, options.passphrase, options.encryption) : frame(compressed)
  const url = `${withoutFragment(options.base)}${SHARE_ROUTE}${encrypted ? ENCRYPTED_PREFIX : PLAIN_PREFIX}${encodeBase64Url(payload)}`
  if (url.length > MAX_LINK_CHARS) throw new ShareTooLongError(url.length, MAX_LINK_CHARS)
  return { url, chars: url.length, redactions, shortened, encrypted }
}

export interface ShareToken {
  version: number
  encrypted: boolean
  payload: string
  /** The normalised token (`v1.…`), what the import hash is taken over. */
  token: string
}

/**
 * Finds the token in whatever the user has: a whole URL, a `#/share/…` fragment, or the bare token. Link text
 * pasted from chat apps picks up whitespace and line breaks; those are not part of base64url, so they are dropped.
 */
export function parseShareToken(input: string): ShareToken {
  const trimmed = input.replace(/\s+/g, '')
  const routed = trimmed.indexOf(SHARE_ROUTE)
  const token = routed >= 0 ? trimmed.slice(routed + SHARE_ROUTE.length) : trimmed.replace(/^#/, '')
  if (token.length > MAX_LINK_CHARS) throw new ImportTooLargeError('the link (characters)', MAX_LINK_CHARS)
  const match = /^v(\d{1,6})(e?)\.(.*)$/s.exec(token)
  if (!match) throw new ImportCorruptError('this is not a tabcode share link')
  const version = Number(match[1])
  if (version > LINK_VERSION) throw new ImportNewerVersionError('share link', version, LINK_VERSION)
  if (version < 1) throw new ImportCorruptError(`unknown link version ${version}`)
  return { version, encrypted: match[2] === 'e', payload: match[3]!, token }
}

/** True when the link needs a passphrase, so the UI can ask before trying. */
export function isEncryptedLink(input: string): boolean {
  return parseShareToken(input).encrypted
}

export interface OpenedLink {
  transcript: SessionTranscript
  /** Hash of the token: the same link opened twice maps to one imported session. */
  hash: string
  encrypted: boolean
}

/**
 * Decodes and validates a share link without writing anything. Every failure is one of the named import errors
 * (corrupt, truncated, too large, passphrase required or wrong, newer version, invalid content).
 */
export async function openShareLink(input: string, options: { passphrase?: string } = {}): Promise<OpenedLink> {
  const token = parseShareToken(input)
  if (token.encrypted && !options.passphrase) throw new ImportPassphraseRequiredError()
  const bytes = decodeBase64Url(token.payload)
  const compressed = token.encrypted ? await decryptBytes(bytes, options.passphrase!) : unframe(bytes)
  const json = decodeUtf8(await inflateRawCapped(compressed, IMPORT_LIMITS.inflatedBytes))
  const transcript = parseTranscriptJson(json, unpackTranscript)
  return { transcript, hash: await contentHash(token.token), encrypted: token.encrypted }
}

export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new ImportCorruptError('the content is not UTF-8 text')
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ImportCorruptError(`not JSON: ${(error as Error).message}`)
  }
}

/** JSON text → bounded value → transcript (through `shape`) → schema-valid transcript within the caps. */
export function parseTranscriptJson(text: string, shape: (value: unknown) => SessionTranscript): SessionTranscript {
  const value = parseJson(text)
  checkJsonShape(value)
  return validateTranscript(shape(value))
}

export function validateTranscript(value: unknown): SessionTranscript {
  const result = SessionTranscriptSchema.safeParse(value)
  if (!result.success) throw new ImportInvalidError(describeIssues(result.error))
  checkTranscriptCounts(result.data)
  const problem = transcriptProblem(result.data)
  if (problem) throw new ImportInvalidError(problem)
  return result.data
}
