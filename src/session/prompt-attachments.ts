import { InputError } from '../core/errors'
import {
  attachmentHash,
  attachmentProblem,
  attachmentURL,
  fromDataURL,
  MAX_ATTACHMENTS,
} from '../core/attachments'
import type { MessageWithParts } from '../store/message-store'
import type { PromptPartInput } from '../core/schema'
import type { StoreContext } from '../store/context'
import { getBlobs, putBlobs, storedHashes } from '../store/blobs'
import { hashContent } from '../workspace/local/hash'

// The blobs' own key: an attachment and a workspace file with the same bytes are one blob.
export { hashContent as sha256 } from '../workspace/local/hash'

/** A file the user attached (not one a mention expanded, which carries its `source`). */
const isAttachment = (part: PromptPartInput): part is Extract<PromptPartInput, { type: 'file' }> => part.type === 'file' && !part.source

/**
 * The prompt's attachments stored as blobs, each part then naming its blob instead of carrying a data URL. Checked
 * again here whatever the page checked: a file over the limit, too many files, or bytes that do not decode refuse
 * the whole prompt with what is wrong (nothing is stored). A part naming a blob already stored is kept as it is.
 */
export async function storeAttachments(context: Pick<StoreContext, 'db'>, parts: PromptPartInput[]): Promise<PromptPartInput[]> {
  const attached = parts.filter(isAttachment)
  if (attached.length === 0) return parts
  if (attached.length > MAX_ATTACHMENTS) throw new InputError('attachments', `A prompt takes at most ${MAX_ATTACHMENTS} attachments; this one has ${attached.length}.`)
  const blobs = new Map<string, Uint8Array<ArrayBuffer>>()
  const named: string[] = []
  const urls = new Map<PromptPartInput, string>()
  for (const part of attached) {
    const known = attachmentHash(part.url)
    if (known) {
      named.push(known)
      continue
    }
    const decoded = part.url.startsWith('data:') ? fromDataURL(part.url) : undefined
    if (!decoded) throw new InputError('attachments', `${part.filename || 'An attachment'} could not be read: its content is not a base64 data URL.`)
    const problem = attachmentProblem({ name: part.filename ?? 'An attachment', size: decoded.bytes.length })
    if (problem) throw new InputError('attachments', problem)
    const hash = await hashContent(decoded.bytes)
    blobs.set(hash, decoded.bytes)
    urls.set(part, attachmentURL(hash))
  }
  if (named.length) {
    const stored = await storedHashes(context, named)
    if (named.some((hash) => !stored.has(hash))) throw new InputError('attachments', 'An attachment of this prompt is no longer stored; attach the file again.')
  }
  await putBlobs(context, [...blobs].map(([hash, data]) => ({ hash, data, size: data.length })))
  return parts.map((part) => {
    const url = urls.get(part)
    return url && part.type === 'file' ? { ...part, url } : part
  })
}

/** The bytes of the attachments the history's prompts name, by hash, for the request that sends them. */
export async function loadAttachments(context: Pick<StoreContext, 'db'>, history: readonly MessageWithParts[]): Promise<Map<string, Uint8Array>> {
  const hashes = new Set<string>()
  for (const entry of history) {
    if (entry.info.role !== 'user') continue
    for (const part of entry.parts) {
      const hash = part.type === 'file' ? attachmentHash(part.url) : undefined
      if (hash) hashes.add(hash)
    }
  }
  const found = new Map<string, Uint8Array>()
  // Most histories have none: a step then costs no read of the blobs.
  if (hashes.size === 0) return found
  const list = [...hashes]
  const blobs = await getBlobs(context, list)
  list.forEach((hash, index) => {
    const blob = blobs[index]
    if (blob) found.set(hash, blob.data)
  })
  return found
}
