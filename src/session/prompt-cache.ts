import type { SharedV4ProviderOptions as ProviderOptions } from '@ai-sdk/provider'
import type { ModelMessage, SystemModelMessage } from 'ai'

/** Where a request goes, by the SDK's provider name (`anthropic.messages`, `openai.chat`) and the model id. */
export interface CacheTarget {
  provider: string
  modelID: string
}

export interface CachedPrompt {
  system: string | SystemModelMessage[]
  messages: ModelMessage[]
  /** Call-level options (OpenAI's `promptCacheKey`). */
  providerOptions?: ProviderOptions
}

/**
 * A cache breakpoint in each SDK's own key: Anthropic's `cacheControl`, and `cache_control` for OpenAI-compatible
 * gateways in front of Claude, which pass it through to Anthropic (OpenRouter, LiteLLM). Each SDK reads only its key.
 */
const EPHEMERAL: ProviderOptions = {
  anthropic: { cacheControl: { type: 'ephemeral' } },
  openaiCompatible: { cache_control: { type: 'ephemeral' } },
}

/** opencode's test: the Anthropic SDK, or a Claude model behind any other API. */
export function isAnthropicFamily(target: CacheTarget): boolean {
  const model = target.modelID.toLowerCase()
  return target.provider.startsWith('anthropic') || model.includes('claude') || model.includes('anthropic')
}

/** OpenAI's own API (Chat Completions or Responses), not a compatible server: it takes a prompt cache key. */
const isOpenAI = (target: CacheTarget) => target.provider.startsWith('openai.')

/**
 * opencode's prompt caching. Anthropic-family models get `ephemeral` breakpoints on the system message and the
 * last two messages, so each step re-reads the long shared prefix from the cache at a tenth of the input price
 * instead of paying for it again; OpenAI gets the session id as `promptCacheKey`, so a session's requests land on
 * the same cache. Anything else is sent as it is. The input is never changed.
 */
export function withPromptCaching(target: CacheTarget, system: string, messages: ModelMessage[], cacheKey: string | undefined): CachedPrompt {
  if (isOpenAI(target)) return { system, messages, ...(cacheKey ? { providerOptions: { openai: { promptCacheKey: cacheKey } } } : {}) }
  if (!isAnthropicFamily(target)) return { system, messages }
  // The Anthropic SDK puts a message's options on its last block; other SDKs read them from the content part.
  const messageLevel = target.provider.startsWith('anthropic')
  const marked = messages.slice()
  for (let index = Math.max(0, marked.length - 2); index < marked.length; index++) {
    marked[index] = withBreakpoint(marked[index]!, messageLevel)
  }
  // tabcode builds its system prompt as one message (opencode's has a header and the rest): one breakpoint, not two.
  const cachedSystem: SystemModelMessage[] = system ? [{ role: 'system', content: system, providerOptions: EPHEMERAL }] : []
  return { system: cachedSystem.length ? cachedSystem : system, messages: marked }
}

function withBreakpoint(message: ModelMessage, messageLevel: boolean): ModelMessage {
  const content = message.content
  if (!messageLevel && Array.isArray(content) && content.length > 0) {
    const last = content[content.length - 1]!
    const own = 'providerOptions' in last ? (last.providerOptions as ProviderOptions | undefined) : undefined
    const parts = [...content.slice(0, -1), { ...last, providerOptions: merge(own, EPHEMERAL) }]
    return { ...message, content: parts } as ModelMessage
  }
  return { ...message, providerOptions: merge(message.providerOptions as ProviderOptions | undefined, EPHEMERAL) } as ModelMessage
}

/** Options merged one level into each provider's key, so a reasoning signature next to the breakpoint survives. */
function merge(base: ProviderOptions | undefined, added: ProviderOptions): ProviderOptions {
  const result: ProviderOptions = { ...base }
  for (const [key, value] of Object.entries(added)) result[key] = { ...result[key], ...value }
  return result
}
