import { formatNumber } from '../kit/format/number'

/** How a link's length compares with what it can be: fine, long (may not paste everywhere) or over the limit. */
export type LinkSizeLevel = 'fine' | 'long' | 'over'

export interface LinkSize {
  level: LinkSizeLevel
  /** The meter's words: "12,345 characters of 524,288". */
  text: string
  /** A sentence for `long` and `over`. */
  advice?: string
}

/** The size meter's reading; `comfortable` is what pastes anywhere, `limit` what a link may be at all. */
export function describeLinkSize(size: { chars: number; limit: number; comfortable: number; attachments?: { count: number; chars: number } | undefined }): LinkSize {
  const text = `${formatNumber(size.chars)} characters of ${formatNumber(size.limit)}`
  const attached = size.attachments?.count ?? 0
  // Base64 hardly compresses, so an attachment costs the link about its data URL's length: without them, it would fit.
  if (size.chars > size.limit && attached > 0 && size.chars - size.attachments!.chars <= size.limit) {
    return {
      level: 'over',
      text,
      advice: `This link is too long: over the ${formatNumber(size.limit)} characters a link can carry, because of the ${attached === 1 ? 'attachment' : `${attached} attachments`} in its prompts. Export the session as a file instead: a file carries attachments whole.`,
    }
  }
  if (size.chars > size.limit) {
    return {
      level: 'over',
      text,
      advice: `This link is too long: over the ${formatNumber(size.limit)} characters a link can carry. Export the session as a file instead, or leave out the tool outputs.`,
    }
  }
  if (size.chars > size.comfortable) {
    return {
      level: 'long',
      text,
      advice: `Over ${formatNumber(size.comfortable)} characters: the link may not paste everywhere (some chat apps and address bars cut long links). A file always works.`,
    }
  }
  return { level: 'fine', text }
}
