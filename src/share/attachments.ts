import { attachmentHash, attachmentURL, fromDataURL, toBase64 } from '../core/attachments'
import type { Blob, Part } from '../core/schema'
import type { StoreContext } from '../store/context'
import { getBlobs } from '../store/blobs'
import type { MessageWithParts } from '../store/message-store'
import { contentHash } from './hash'
import type { SessionTranscript } from './transcript'

/**
 * Attachments leave in exports and links as data URLs, like the read tool's media, so a document carries their
 * bytes and stands alone; an import stores them as blobs again, each part then naming its blob. The URL's
 * `tabcode=attachment` parameter says which data URLs were blobs: one that came in as a data URL (an older import)
 * stays one, so export and import give back the rows they were given.
 */
const MARK = 'tabcode=attachment'

export const exportedAttachmentURL = (mime: string, bytes: Uint8Array) => `data:${mime};${MARK};base64,${toBase64(bytes)}`

const isExportedAttachment = (url: string) => url.startsWith('data:') && url.slice(0, url.indexOf(',')).split(';').includes(MARK)

const mapTree = async (
  node: SessionTranscript,
  map: (message: MessageWithParts) => Promise<MessageWithParts>,
): Promise<SessionTranscript> => ({
  ...node,
  messages: await Promise.all(node.messages.map(map)),
  ...(node.children ? { children: await Promise.all(node.children.map((child) => mapTree(child, map))) } : {}),
})

/** The hashes the parts' attachments name. */
function namedHashes(parts: readonly Part[]): string[] {
  return parts.flatMap((part) => {
    const hash = part.type === 'file' ? attachmentHash(part.url) : undefined
    return hash ? [hash] : []
  })
}

/**
 * The parts with each attachment's bytes in its URL. An attachment whose blob is gone keeps its `tabcode-blob:` URL:
 * the importer shows it by name and the model is told it is no longer stored.
 */
export async function inlinePartAttachments(context: Pick<StoreContext, 'db'>, parts: Part[]): Promise<Part[]> {
  const hashes = [...new Set(namedHashes(parts))]
  if (hashes.length === 0) return parts
  const blobs = await getBlobs(context, hashes)
  const data = new Map(hashes.flatMap((hash, index) => (blobs[index] ? [[hash, blobs[index].data] as const] : [])))
  return parts.map((part) => {
    const hash = part.type === 'file' ? attachmentHash(part.url) : undefined
    const bytes = hash && data.get(hash)
    return bytes && part.type === 'file' ? { ...part, url: exportedAttachmentURL(part.mime, bytes) } : part
  })
}

export function inlineAttachments(context: Pick<StoreContext, 'db'>, transcript: SessionTranscript): Promise<SessionTranscript> {
  return mapTree(transcript, async (message) => ({ ...message, parts: await inlinePartAttachments(context, message.parts) }))
}

/** How many characters the attachments' data URLs take (what a link spends on them). */
export function attachmentChars(transcript: SessionTranscript): { count: number; chars: number } {
  let count = 0
  let chars = 0
  const visit = (node: SessionTranscript) => {
    for (const message of node.messages) {
      if (message.info.role !== 'user') continue
      for (const part of message.parts) {
        if (part.type === 'file' && isExportedAttachment(part.url)) {
          count += 1
          chars += part.url.length
        }
      }
    }
    node.children?.forEach(visit)
  }
  visit(transcript)
  return { count, chars }
}

/**
 * An imported transcript's attachments (a prompt's file parts whose data URL an export marked) as blobs, the parts
 * naming them. Pure but for hashing; the caller writes the blobs with the rows.
 */
export async function extractAttachments(transcript: SessionTranscript): Promise<{ transcript: SessionTranscript; blobs: Blob[] }> {
  const blobs = new Map<string, Blob>()
  const tree = await mapTree(transcript, async (message) => {
    if (message.info.role !== 'user') return message
    const parts = await Promise.all(
      message.parts.map(async (part) => {
        if (part.type !== 'file' || !isExportedAttachment(part.url)) return part
        const decoded = fromDataURL(part.url)
        if (!decoded) return part
        const hash = await contentHash(decoded.bytes)
        blobs.set(hash, { hash, data: decoded.bytes, size: decoded.bytes.length })
        return { ...part, url: attachmentURL(hash) }
      }),
    )
    return { ...message, parts }
  })
  return { transcript: tree, blobs: [...blobs.values()] }
}

/** The transcript with its attachments as plain data URLs, for another app (opencode's export) that has no blobs. */
export function withPlainAttachments(transcript: SessionTranscript): SessionTranscript {
  return {
    ...transcript,
    messages: transcript.messages.map((message) => ({
      ...message,
      parts: message.parts.map((part) =>
        part.type === 'file' && isExportedAttachment(part.url) ? { ...part, url: part.url.replace(`;${MARK}`, '') } : part,
      ),
    })),
    ...(transcript.children ? { children: transcript.children.map(withPlainAttachments) } : {}),
  }
}
