import { describe, expect, it } from 'vitest'
import type { MessageError } from '../core/schema'
import { type Arrival, type Frame, type ProviderKind, verdictOf } from './testing/provider-replies'

// How each shipped provider's failures are classified: what arrives (status, body, error code, message) → the error's
// kind, the words the user reads, and whether the loop retries (with the banner's words). Each row names the opencode
// rule it follows ("opencode: …", from its provider/error.ts, llm provider-error.ts, message-v2.ts `fromError` and
// session/retry.ts `retryable`) or the difference from it that docs/differences-from-opencode.md explains ("ours: …").

interface Row {
  rule: string
  arrives: Arrival
  kind: MessageError['name']
  shows: string | RegExp
  /** The retry banner's words, or false when the turn stops. */
  retried: string | RegExp | false
}

const transportError = (code: string, message: string) => Object.assign(new Error(message), { code })
const RESET = () => transportError('ECONNRESET', 'The socket connection was closed unexpectedly')

/** Rows every provider shares: the transport fails before an answer or mid-stream, whichever SDK reads it. */
function transportRows(firstFrames: Frame[]): Row[] {
  return [
    {
      rule: 'opencode fromError: ECONNRESET in error.code alone → "Connection reset by server", retried',
      arrives: { fails: RESET() },
      kind: 'APIError',
      shows: 'Connection reset by server',
      retried: 'Connection reset by server',
    },
    {
      rule: 'opencode fromError: ECONNRESET after some text streamed, retried',
      arrives: { sse: firstFrames, breaks: RESET() },
      kind: 'APIError',
      shows: 'Connection reset by server',
      retried: 'Connection reset by server',
    },
    {
      rule: "ours: Node's \"fetch failed\" with ECONNRESET on its cause, read from the cause",
      arrives: { fails: Object.assign(new TypeError('fetch failed'), { cause: RESET() }) },
      kind: 'APIError',
      shows: 'Connection reset by server',
      retried: 'Connection reset by server',
    },
    {
      rule: 'ours: ETIMEDOUT is retried (opencode leaves it an UnknownError)',
      arrives: { fails: transportError('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:443') },
      kind: 'APIError',
      shows: 'Connection timed out',
      retried: 'Connection timed out',
    },
    {
      rule: 'ours: EPIPE mid-stream is retried (opencode leaves it an UnknownError)',
      arrives: { sse: firstFrames, breaks: transportError('EPIPE', 'write EPIPE') },
      kind: 'APIError',
      shows: 'Connection closed while sending',
      retried: 'Connection closed while sending',
    },
    {
      rule: "opencode parseAPICallError: ECONNREFUSED before an answer is the AI SDK's retryable \"Cannot connect to API\"",
      arrives: { fails: transportError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:11434') },
      kind: 'APIError',
      shows: 'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434',
      retried: 'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434',
    },
    {
      rule: 'opencode fromError: ENOTFOUND is another Error → UnknownError with its message, not retried',
      arrives: { fails: transportError('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.invalid') },
      kind: 'UnknownError',
      shows: 'getaddrinfo ENOTFOUND api.example.invalid',
      retried: false,
    },
    {
      rule: 'opencode retryable: plain-text "rate limit" → retried with the provider\'s words',
      arrives: { fails: new Error('You have hit the rate limit for this key, slow down') },
      kind: 'UnknownError',
      shows: 'You have hit the rate limit for this key, slow down',
      retried: 'You have hit the rate limit for this key, slow down',
    },
    {
      rule: 'opencode retryable: plain-text "too many requests" → retried with the provider\'s words',
      arrives: { fails: new Error('Too Many Requests: try again in a minute') },
      kind: 'UnknownError',
      shows: 'Too Many Requests: try again in a minute',
      retried: 'Too Many Requests: try again in a minute',
    },
    {
      rule: 'opencode retryable: plain-text "rate increased too quickly" → retried with the provider\'s words',
      arrives: { fails: new Error('Request rate increased too quickly, scale up gradually') },
      kind: 'UnknownError',
      shows: 'Request rate increased too quickly, scale up gradually',
      retried: 'Request rate increased too quickly, scale up gradually',
    },
    {
      rule: 'opencode retryable: only its three phrases count ("rate-limited" is not one), not retried',
      arrives: { fails: new Error('Key is rate-limited') },
      kind: 'UnknownError',
      shows: 'Key is rate-limited',
      retried: false,
    },
  ]
}

async function check(kind: ProviderKind, row: Row) {
  const { named, reason } = await verdictOf(kind, row.arrives)
  const where = JSON.stringify(named)
  expect(named.name, where).toBe(row.kind)
  expect('message' in named.data ? named.data.message : undefined, where).toMatch(row.shows)
  if (row.retried === false) expect(reason, where).toBeUndefined()
  else expect(reason, where).toMatch(row.retried)
}

// ── OpenAI (Chat Completions, the wire OpenAI-compatible servers copy) ─────────────────────────────────────────────

const chatChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta: { role: 'assistant', content: 'Half an ' }, finish_reason: null }],
}
const openAIError = (message: string, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } })

const openAIRows: Row[] = [
  {
    rule: 'opencode parseStreamError: a stream context_length_exceeded with only the code → its words',
    arrives: { sse: [chatChunk, { error: { code: 'context_length_exceeded' } }] },
    kind: 'ContextOverflowError',
    shows: /^Input exceeds context window of this model$/,
    retried: false,
  },
  {
    rule: "ours: a stream context_length_exceeded with the provider's words keeps them (opencode shows its fixed text)",
    arrives: { sse: [chatChunk, openAIError('Your input exceeds the context window of this model.', 'invalid_request_error', 'context_length_exceeded')] },
    kind: 'ContextOverflowError',
    shows: 'Your input exceeds the context window of this model.',
    retried: false,
  },
  {
    rule: 'opencode isContextOverflow: "maximum context length is N tokens" in a 400',
    arrives: { status: 400, body: openAIError("This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", 'invalid_request_error') },
    kind: 'ContextOverflowError',
    shows: /maximum context length is 8192 tokens/,
    retried: false,
  },
  { rule: 'opencode parseAPICallError: any 413 is an overflow', arrives: { status: 413 }, kind: 'ContextOverflowError', shows: /./, retried: false },
  { rule: 'ours: a 400 with an empty body is an overflow (Cerebras, Mistral)', arrives: { status: 400 }, kind: 'ContextOverflowError', shows: /./, retried: false },
  {
    rule: 'opencode isContextOverflow exclusions: a rate limit naming "too many tokens" is not an overflow',
    arrives: { status: 429, body: openAIError('Rate limit reached: too many tokens per minute', 'tokens', 'rate_limit_exceeded') },
    kind: 'APIError',
    shows: 'Rate limit reached: too many tokens per minute',
    retried: 'Rate limit reached: too many tokens per minute',
  },
  {
    rule: "opencode retryable: a retryable APIError shows the provider's words",
    arrives: { status: 429, headers: { 'retry-after-ms': '1500' }, body: openAIError('Rate limit reached for gpt-4o', 'requests', 'rate_limit_exceeded') },
    kind: 'APIError',
    shows: 'Rate limit reached for gpt-4o',
    retried: 'Rate limit reached for gpt-4o',
  },
  {
    rule: "ours: insufficient_quota says to check the plan, then the provider's words; not retried",
    arrives: { status: 429, body: openAIError('You exceeded your current quota.', 'insufficient_quota', 'insufficient_quota') },
    kind: 'APIError',
    shows: /check your plan and billing at the provider.*You exceeded your current quota/,
    retried: false,
  },
  {
    rule: "ours: OpenAI's 404 is not retried (opencode retries it)",
    arrives: { status: 404, body: openAIError('The model `gpt-9` does not exist', 'invalid_request_error', 'model_not_found') },
    kind: 'APIError',
    shows: 'The model `gpt-9` does not exist',
    retried: false,
  },
  {
    rule: 'opencode retryable: a 5xx is retried with the provider\'s words',
    arrives: { status: 500, body: openAIError('The server had an error while processing your request.', 'server_error') },
    kind: 'APIError',
    shows: 'The server had an error while processing your request.',
    retried: 'The server had an error while processing your request.',
  },
  ...transportRows([chatChunk]),
]

// ── OpenAI-compatible gateways and local servers ──────────────────────────────────────────────────────────────────

const gatewayOverflow = (words: string): Row => ({
  rule: `opencode isContextOverflow: "${words}"`,
  arrives: { status: 400, body: openAIError(words, 'invalid_request_error') },
  kind: 'ContextOverflowError',
  shows: words,
  retried: false,
})

const compatibleRows: Row[] = [
  gatewayOverflow('The number of tokens in request more than max tokens allowed (131072).'),
  gatewayOverflow('model_context_window_exceeded'),
  gatewayOverflow('prompt too long; exceeded max context length by 2048 tokens'),
  gatewayOverflow('the request exceeds the available context size, try increasing it'),
  gatewayOverflow('Prompt has 140,000 tokens, but the configured context size is 131,072 tokens'),
  gatewayOverflow('Too many images in request: at most 20 are allowed'),
  {
    rule: 'opencode isContextOverflow: the same words inside a stream error',
    arrives: { sse: [chatChunk, { error: { message: 'tokens in request more than max tokens allowed', type: 'invalid_request_error', code: null } }] },
    kind: 'ContextOverflowError',
    shows: 'tokens in request more than max tokens allowed',
    retried: false,
  },
  {
    rule: "opencode retryable: a 5xx with a plain-text body is retried with the body's words",
    arrives: { status: 503, body: 'upstream connect error' },
    kind: 'APIError',
    shows: 'upstream connect error',
    retried: 'upstream connect error',
  },
  {
    rule: 'opencode retryable: an upstream JSON naming too_many_requests → "Too Many Requests"',
    arrives: { status: 503, body: { error: { message: JSON.stringify({ type: 'error', error: { type: 'too_many_requests' } }) } } },
    kind: 'APIError',
    shows: 'Too Many Requests',
    retried: 'Too Many Requests',
  },
  ...transportRows([chatChunk]),
]

// ── Anthropic ─────────────────────────────────────────────────────────────────────────────────────────────────────

const anthropicStart: Frame[] = [
  {
    event: 'message_start',
    data: {
      type: 'message_start',
      message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
    },
  },
  { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
  { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Half an ' } } },
]
const anthropicBody = (type: string, message: string) => ({ type: 'error', error: { type, message } })

const anthropicRows: Row[] = [
  {
    rule: 'opencode isContextOverflow: "prompt is too long"',
    arrives: { status: 400, body: anthropicBody('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum') },
    kind: 'ContextOverflowError',
    shows: 'prompt is too long: 210000 tokens > 200000 maximum',
    retried: false,
  },
  {
    rule: 'opencode isContextOverflow: request_too_large mid-stream',
    arrives: { sse: [...anthropicStart, { event: 'error', data: anthropicBody('request_too_large', 'Request exceeds the maximum allowed number of bytes.') }] },
    kind: 'ContextOverflowError',
    shows: 'Request exceeds the maximum allowed number of bytes.',
    retried: false,
  },
  {
    rule: 'opencode retryable: a message with "Overloaded" → "Provider is overloaded"',
    arrives: { status: 529, body: anthropicBody('overloaded_error', 'Overloaded') },
    kind: 'APIError',
    shows: 'Overloaded',
    retried: 'Provider is overloaded',
  },
  {
    rule: "opencode retryable: a rate_limit_error shows the provider's words",
    arrives: { status: 429, headers: { 'retry-after': '12' }, body: anthropicBody('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit') },
    kind: 'APIError',
    shows: 'Number of request tokens has exceeded your per-minute rate limit',
    retried: 'Number of request tokens has exceeded your per-minute rate limit',
  },
  {
    rule: 'opencode fromError: a 401 is an auth error, not retried',
    arrives: { status: 401, body: anthropicBody('authentication_error', 'invalid x-api-key') },
    kind: 'ProviderAuthError',
    shows: 'invalid x-api-key',
    retried: false,
  },
  ...transportRows(anthropicStart),
]

// ── Google Gemini ─────────────────────────────────────────────────────────────────────────────────────────────────

const geminiChunk = { candidates: [{ content: { parts: [{ text: 'Half an ' }], role: 'model' }, index: 0 }] }
const googleBody = (code: number, status: string, message: string) => ({ error: { code, message, status } })

const googleRows: Row[] = [
  {
    rule: 'opencode isContextOverflow: "input token count … exceeds the maximum"',
    arrives: { status: 400, body: googleBody(400, 'INVALID_ARGUMENT', 'The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).') },
    kind: 'ContextOverflowError',
    shows: /^The input token count \(1196265\)/,
    retried: false,
  },
  {
    rule: "opencode retryable: a 429 RESOURCE_EXHAUSTED shows the provider's words",
    arrives: { status: 429, body: googleBody(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).') },
    kind: 'APIError',
    shows: 'Resource has been exhausted (e.g. check quota).',
    retried: 'Resource has been exhausted (e.g. check quota).',
  },
  {
    rule: 'opencode retryable: "Overloaded" is case-sensitive, so Google\'s lower-case "overloaded" keeps its words',
    arrives: { sse: [geminiChunk, googleBody(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.')] },
    kind: 'APIError',
    shows: 'The model is overloaded. Please try again later.',
    retried: 'The model is overloaded. Please try again later.',
  },
  {
    rule: 'opencode fromError: a 403 PERMISSION_DENIED is an auth error',
    arrives: { status: 403, body: googleBody(403, 'PERMISSION_DENIED', 'API key not valid.') },
    kind: 'ProviderAuthError',
    shows: 'API key not valid.',
    retried: false,
  },
  ...transportRows([geminiChunk]),
]

describe.each([
  ['OpenAI', 'openai', openAIRows],
  ['OpenAI-compatible', 'openai-compatible', compatibleRows],
  ['Anthropic', 'anthropic', anthropicRows],
  ['Google', 'google', googleRows],
] as const)('%s error classification', (_, kind, rows) => {
  it.each(rows)('$rule', async (row) => {
    await check(kind, row)
  })
})
