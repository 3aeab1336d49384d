import { checkClaim, describeMismatch, isTextMime, SNIFF_BYTES, type ByteMismatch, type MismatchOutcome } from './file-type'
import { textOf } from './text-sniff'
import type { Part, PromptPartInput } from './schema'

/**
 * Files the user attaches to a prompt (pasted, dropped or picked). Their bytes are stored once, as a blob keyed by
 * SHA-256, and the file part points at it with a `tabcode-blob:` URL: a part stays small however big the file, and the
 * same image attached twice is stored once.
 */
export const ATTACHMENT_URL_PREFIX = 'tabcode-blob:'
/** Per file: what a provider takes in one request part, and what the read tool sends of an image or PDF. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
export const MAX_ATTACHMENTS = 10

const HASH = /^[0-9a-f]{64}$/

export const attachmentURL = (hash: string) => `${ATTACHMENT_URL_PREFIX}${hash}`

/** The blob hash a part's URL names, or undefined when the URL is something else (a data URL, `file://`). */
export function attachmentHash(url: string): string | undefined {
  if (!url.startsWith(ATTACHMENT_URL_PREFIX)) return undefined
  const hash = url.slice(ATTACHMENT_URL_PREFIX.length)
  return HASH.test(hash) ? hash : undefined
}

/** Image types every provider with image input reads; others (SVG, TIFF, HEIC) are not sent as images. */
const MODEL_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/**
 * How a model gets an attachment: as an image (with the type its bytes prove), as a PDF, as its text, as opencode's
 * "cannot read" note, or not at all because its bytes are not what its type claims (`mismatch` says what they are,
 * for the model and the person).
 */
export type AttachmentUse =
  | { kind: 'image'; mime: string }
  | { kind: 'pdf' }
  | { kind: 'text' }
  | { kind: 'unreadable' }
  | { kind: 'refused'; mismatch: ByteMismatch }

export function attachmentUse(mime: string, data: Uint8Array): AttachmentUse {
  const checked = checkClaim(mime, data)
  if (checked.kind === 'broken') return { kind: 'refused', mismatch: checked.mismatch }
  if (MODEL_IMAGES.has(checked.mime)) return { kind: 'image', mime: checked.mime }
  if (mime === 'application/pdf') return { kind: 'pdf' }
  // The check reads a file's head; a text must also decode to its end to be sent as its text.
  if (isTextMime(mime)) return textOf(data) !== null ? { kind: 'text' } : { kind: 'refused', mismatch: { claimed: 'text', found: 'other' } }
  // A file the browser gives no type (`.ts`, `.rs`, a dotfile) is text when its bytes are.
  if (!mime.startsWith('image/') && !mime.startsWith('audio/') && !mime.startsWith('video/') && textOf(data) !== null) return { kind: 'text' }
  return { kind: 'unreadable' }
}

/** Why an attachment's bytes cannot go as what it claims, in words; undefined when they can. */
export function attachmentMismatch(name: string, mime: string, data: Uint8Array, outcome: MismatchOutcome): string | undefined {
  const use = attachmentUse(mime, data)
  return use.kind === 'refused' ? describeMismatch(name, use.mismatch, outcome) : undefined
}

const EXTENSION_MIMES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml',
  pdf: 'application/pdf', json: 'application/json', md: 'text/markdown', txt: 'text/plain', csv: 'text/csv',
  html: 'text/html', css: 'text/css', js: 'text/javascript', ts: 'text/x-typescript', py: 'text/x-python',
}

/** The type a file goes in with: what the browser says, else a guess from its extension, else unknown bytes. */
export function attachmentMime(name: string, type: string): string {
  if (type) return type
  const extension = name.includes('.') ? name.split('.').pop()!.toLowerCase() : ''
  return EXTENSION_MIMES[extension] ?? 'application/octet-stream'
}

/** What the prompt knows of a file before reading it. */
export interface AttachmentCandidate {
  name: string
  size: number
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** Why one file cannot be attached, in words for the prompt; undefined when it can. */
export function attachmentProblem(file: AttachmentCandidate): string | undefined {
  if (file.size === 0) return `${file.name || 'The file'} is empty: there is nothing to attach.`
  if (file.size > MAX_ATTACHMENT_BYTES) {
    return `${file.name || 'The file'} is ${formatBytes(file.size)}: an attachment can be at most ${formatBytes(MAX_ATTACHMENT_BYTES)}.`
  }
  return undefined
}

/**
 * Which of `added` join the `attached` files, and what is wrong with the others: each file within the size limit,
 * at most MAX_ATTACHMENTS in all. The files that fit are kept even when others are refused.
 */
export function admitAttachments<T extends AttachmentCandidate>(attached: number, added: readonly T[]): { accepted: T[]; problems: string[] } {
  const accepted: T[] = []
  const problems: string[] = []
  const full: string[] = []
  for (const file of added) {
    const problem = attachmentProblem(file)
    if (problem) problems.push(problem)
    else if (attached + accepted.length >= MAX_ATTACHMENTS) full.push(file.name)
    else accepted.push(file)
  }
  if (full.length) problems.push(`A prompt takes at most ${MAX_ATTACHMENTS} attachments: ${full.join(', ')} ${full.length === 1 ? 'was' : 'were'} not attached.`)
  return { accepted, problems }
}

export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  return btoa(binary)
}

export const toDataURL = (mime: string, bytes: Uint8Array) => `data:${mime};base64,${toBase64(bytes)}`

const DATA_URL = /^data:([^,;]*)((?:;[^,;]*)*?);base64,/

/** The bytes of a base64 data URL; undefined for anything else (or base64 that does not decode). */
export function fromDataURL(url: string): { mime: string; bytes: Uint8Array<ArrayBuffer> } | undefined {
  const match = DATA_URL.exec(url)
  if (!match) return undefined
  try {
    const binary = atob(url.slice(match[0].length))
    const bytes = new Uint8Array(binary.length)
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
    return { mime: match[1] || 'application/octet-stream', bytes }
  } catch {
    return undefined
  }
}

/**
 * The first `count` bytes of a base64 data URL, without decoding the rest (a sniff needs only the head of what may be
 * megabytes); undefined for a URL that is not base64 data.
 */
export function dataURLHead(url: string, count = SNIFF_BYTES): Uint8Array | undefined {
  const match = DATA_URL.exec(url)
  if (!match) return undefined
  // Whitespace inside the base64 (allowed, and ignored by atob) can shift the cut off a 4-character group.
  return fromDataURL(url.slice(0, match[0].length + Math.ceil(count / 3) * 4))?.bytes.subarray(0, count) ?? fromDataURL(url)?.bytes.subarray(0, count)
}

/** A text attachment as the model reads it: named, then its content, as the read tool frames a file. */
export const attachmentText = (filename: string | undefined, text: string) =>
  `The user attached ${filename || 'a file'}:\n<content>\n${text}\n</content>`

/** What the model is told when an attachment's bytes are gone (a blob removed, an import without them). */
export const missingAttachmentText = (filename: string | undefined) =>
  `[Attachment ${filename || 'file'} is no longer stored]`

/** A stored prompt's attachments as prompt parts again (its blobs named as they are): what a resend sends along. */
export function attachedParts(parts: readonly Part[]): PromptPartInput[] {
  return parts.flatMap((part) =>
    part.type === 'file' && !part.source && attachmentHash(part.url)
      ? [{ type: 'file' as const, mime: part.mime, url: part.url, ...(part.filename ? { filename: part.filename } : {}) }]
      : [],
  )
}
