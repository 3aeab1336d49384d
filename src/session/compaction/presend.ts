import type { ModelMessage } from 'ai'
import type { MessageError } from '../../core/schema'
import { usableTokens, type ModelLimit } from '../../core/compaction/overflow'
import { overflowWithoutAuto } from '../../core/compaction/prompt'

/**
 * What one attached file counts for in the estimate: its base64 would count a thousand times what providers charge
 * for an image (about 1,600 tokens at most for Anthropic), and a pasted screenshot must not compact the session.
 */
export const MEDIA_TOKENS = 1_600

/**
 * The rough size of a request before it is sent: opencode's count (a quarter of the JSON length) over the system
 * prompt, the messages as built for the step and the tool definitions it offers, with each file counted as
 * MEDIA_TOKENS. One serialisation of what the step sends anyway: no second conversion of the history.
 */
export function requestTokens(request: { system: string; messages: ModelMessage[]; tools: readonly unknown[] }): number {
  const parts = [request.system, request.messages, request.tools]
  // Without a replacer V8 serialises on its fast path, several times quicker; a request with media (an object whose
  // `type` is a file or an image: a string holding those words is escaped, so it cannot match) is counted again.
  const plain = JSON.stringify(parts)
  if (!plain.includes('"type":"file"') && !plain.includes('"type":"image"')) return Math.round(plain.length / 4)
  let media = 0
  const json = JSON.stringify(parts, function (this: Record<string, unknown>, key, value: unknown) {
    if ((key === 'data' && this.type === 'file') || (key === 'image' && this.type === 'image')) {
      media++
      return ''
    }
    return value
  })
  return Math.round(json.length / 4) + media * MEDIA_TOKENS
}

export type PresendVerdict = { action: 'send' } | { action: 'compact' } | { action: 'stop'; error: MessageError }

/**
 * Whether a step may be sent as built (better than opencode, which only learns of an overflow from the provider's
 * error or the step's usage, so an imported session or one switched to a smaller model fails first). A request at
 * or over the usable context is compacted first, or, with automatic compaction off, not sent. The estimate never
 * overrules the provider when a compaction could not help: right after one (the provider's answer decides, and a
 * second compaction would loop) or when the history is one prompt (nothing earlier could be summarised).
 */
export function presendVerdict(input: { estimate: number; limit: ModelLimit; auto: boolean; compacted: boolean; onlyPrompt: boolean }): PresendVerdict {
  if (input.limit.context === 0 || input.compacted || input.onlyPrompt) return { action: 'send' }
  const usable = usableTokens(input.limit)
  if (input.estimate < usable) return { action: 'send' }
  if (input.auto) return { action: 'compact' }
  const detail = `about ${input.estimate} tokens estimated, ${usable} usable`
  return { action: 'stop', error: { name: 'ContextOverflowError', data: { message: overflowWithoutAuto(detail) } } }
}
