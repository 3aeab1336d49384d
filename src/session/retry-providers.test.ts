import { describe, expect, it } from 'vitest'
import { type Arrival, type ProviderKind, verdictOf } from './testing/provider-replies'

// What each provider sends when something goes wrong, through that provider's own SDK (the parsers the app runs),
// and what the loop makes of it: retried after a delay, compacted, stopped with advice, or stopped.
// Shapes: the providers' documented error bodies and stream events, as the SDKs' schemas in node_modules accept them.

const QUOTA_ADVICE = /check your plan and billing at the provider/

type Verdict =
  | { retry: string | RegExp; delay?: number }
  | { overflow: string | RegExp }
  | { quota: RegExp }
  | { auth: string | RegExp }
  | { other: string | RegExp }

interface Row {
  case: string
  arrives: Arrival
  becomes: Verdict
}

/** One row: a stream that had text before its error must have shown the text first (the error came mid-stream). */
async function run(type: ProviderKind, row: Row) {
  const result = await verdictOf(type, row.arrives)
  if ('sse' in row.arrives && row.arrives.sse.length > 1) expect(result.text, 'text streamed before the error').toBe(true)
  check(result, row.becomes)
}

function check(result: Awaited<ReturnType<typeof verdictOf>>, becomes: Verdict) {
  const { named, reason, delay } = result
  const where = JSON.stringify(named)
  if ('retry' in becomes) {
    expect(named.name, where).toBe('APIError')
    expect(reason, where).toMatch(becomes.retry)
    if (becomes.delay !== undefined) expect(delay).toBe(becomes.delay)
  } else if ('overflow' in becomes) {
    expect(named.name, where).toBe('ContextOverflowError')
    expect(named.data.message).toMatch(becomes.overflow)
    expect(reason).toBeUndefined()
  } else if ('quota' in becomes) {
    expect(named.name, where).toBe('APIError')
    expect(named.data.message).toMatch(QUOTA_ADVICE)
    expect(named.data.message).toMatch(becomes.quota)
    expect(reason, 'a used-up quota is not retried').toBeUndefined()
  } else if ('auth' in becomes) {
    expect(named.name, where).toBe('ProviderAuthError')
    expect(named.data.message).toMatch(becomes.auth)
  } else {
    expect(reason, where).toBeUndefined()
    expect(['ContextOverflowError', 'ProviderAuthError']).not.toContain(named.name)
    expect(named.data.message).toMatch(becomes.other)
  }
}

// ── Chat Completions ─────────────────────────────────────────────────────────────────────────────────────────────

const chatChunk = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }],
})
const openAIError = (message: string | null, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } })
const SERVER_ERROR = 'The server had an error while processing your request. Sorry about that!'
const QUOTA_WORDS = 'You exceeded your current quota, please check your plan and billing details.'

const chatCompletionRows: Row[] = [
  {
    case: 'a server_error chunk after some text',
    arrives: { sse: [chatChunk('Half an '), openAIError(SERVER_ERROR, 'server_error')] },
    becomes: { retry: SERVER_ERROR, delay: 2_000 },
  },
  {
    case: 'an in-stream context_length_exceeded after some text',
    arrives: { sse: [chatChunk('Half an '), openAIError('Your input exceeds the context window of this model.', 'invalid_request_error', 'context_length_exceeded')] },
    becomes: { overflow: /exceeds the context window/ },
  },
  {
    case: "an in-stream context_length_exceeded with only the code shows opencode's words",
    arrives: { sse: [chatChunk('Half an '), { error: { code: 'context_length_exceeded' } }] },
    becomes: { overflow: /^Input exceeds context window of this model$/ },
  },
  {
    case: 'an in-stream server_error with only the code',
    arrives: { sse: [chatChunk('Half an '), { error: { code: 'server_error' } }] },
    becomes: { retry: 'Server error' },
  },
  {
    case: 'an in-stream rate limit',
    arrives: { sse: [chatChunk('Half an '), openAIError('Rate limit reached for gpt-4o', 'requests', 'rate_limit_exceeded')] },
    becomes: { retry: 'Rate limit reached for gpt-4o' },
  },
  {
    case: 'an in-stream insufficient_quota',
    arrives: { sse: [chatChunk('Half an '), openAIError(QUOTA_WORDS, 'insufficient_quota', 'insufficient_quota')] },
    becomes: { quota: /exceeded your current quota/ },
  },
  {
    case: 'a 429 insufficient_quota',
    arrives: { status: 429, body: openAIError(QUOTA_WORDS, 'insufficient_quota', 'insufficient_quota') },
    becomes: { quota: /Quota exceeded/ },
  },
  {
    case: 'a 429 usage_not_included',
    arrives: { status: 429, body: openAIError('Your plan does not include this usage.', 'usage_not_included', 'usage_not_included') },
    becomes: { quota: /plan does not include/ },
  },
  {
    case: 'a 429 rate limit with retry-after-ms',
    arrives: {
      status: 429,
      headers: { 'retry-after-ms': '1500' },
      body: openAIError('Rate limit reached for gpt-4o in organization org-1 on requests per min (RPM): Limit 3.', 'requests', 'rate_limit_exceeded'),
    },
    becomes: { retry: /^Rate limit reached for gpt-4o in organization/, delay: 1_500 },
  },
  {
    case: 'a 429 with retry-after in seconds',
    arrives: { status: 429, headers: { 'retry-after': '7' }, body: openAIError('Slow down', 'requests', 'rate_limit_exceeded') },
    becomes: { retry: 'Slow down', delay: 7_000 },
  },
  {
    case: 'a 400 context_length_exceeded as the code only',
    arrives: { status: 400, body: openAIError('Some message', 'invalid_request_error', 'context_length_exceeded') },
    becomes: { overflow: 'Some message' },
  },
  {
    case: 'a 400 in other words: "tokens in request more than max tokens allowed"',
    arrives: { status: 400, body: openAIError('The number of tokens in request more than max tokens allowed (131072).', 'invalid_request_error') },
    becomes: { overflow: /more than max tokens allowed/ },
  },
  {
    case: "a 400 with OpenAI's maximum context length wording",
    arrives: { status: 400, body: openAIError("This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", 'invalid_request_error') },
    becomes: { overflow: /maximum context length is 8192 tokens/ },
  },
  { case: 'a 400 with no body', arrives: { status: 400 }, becomes: { overflow: /./ } },
  { case: 'a 413 with no body', arrives: { status: 413 }, becomes: { overflow: /./ } },
  { case: 'a 429 with no body is a rate limit, not an overflow', arrives: { status: 429 }, becomes: { retry: /./ } },
  {
    case: 'a 400 that is not an overflow',
    arrives: { status: 400, body: openAIError("Invalid value for 'temperature'", 'invalid_request_error') },
    becomes: { other: "Invalid value for 'temperature'" },
  },
  {
    case: 'a 401',
    arrives: { status: 401, body: openAIError('Incorrect API key provided: sk-test.', 'invalid_request_error', 'invalid_api_key') },
    becomes: { auth: /Incorrect API key/ },
  },
  { case: 'a 503 with a plain-text body', arrives: { status: 503, body: 'upstream connect error' }, becomes: { retry: 'upstream connect error' } },
  {
    case: "a 503 whose message is the upstream's JSON: too_many_requests",
    arrives: { status: 503, body: { error: { message: JSON.stringify({ error: { type: 'too_many_requests' } }) } } },
    becomes: { retry: 'Too Many Requests' },
  },
  {
    case: "a 429 whose message is Anthropic's JSON, passed on by a gateway",
    arrives: {
      status: 429,
      body: { error: { message: JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } }) } },
    },
    becomes: { retry: 'Number of request tokens has exceeded your per-minute rate limit' },
  },
]

describe.each([
  ['OpenAI (Chat Completions)', 'openai'],
  ['OpenAI-compatible', 'openai-compatible'],
] as const)('%s errors', (_, type) => {
  it.each(chatCompletionRows)('$case', async (row) => {
    await run(type, row)
  })
})

describe('OpenAI errors before any output', () => {
  it('a server_error as the first chunk is retried like an HTTP 500', async () => {
    check(await verdictOf('openai', { sse: [openAIError(SERVER_ERROR, 'server_error')] }), { retry: SERVER_ERROR })
  })
})

// ── Anthropic Messages ───────────────────────────────────────────────────────────────────────────────────────────

const anthropicStart = [
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
const anthropicEvent = (type: string, message: string) => ({ event: 'error', data: { type: 'error', error: { type, message } } })
const anthropicBody = (type: string, message: string) => ({ type: 'error', error: { type, message } })

const anthropicRows: Row[] = [
  { case: 'an overloaded_error event mid-stream', arrives: { sse: [...anthropicStart, anthropicEvent('overloaded_error', 'Overloaded')] }, becomes: { retry: 'Provider is overloaded' } },
  { case: 'an api_error event mid-stream', arrives: { sse: [...anthropicStart, anthropicEvent('api_error', 'Internal server error')] }, becomes: { retry: 'Internal server error' } },
  {
    case: 'a request_too_large event',
    arrives: { sse: [...anthropicStart, anthropicEvent('request_too_large', 'Request exceeds the maximum allowed number of bytes.')] },
    becomes: { overflow: /maximum allowed number of bytes/ },
  },
  { case: 'a 529 overloaded_error', arrives: { status: 529, body: anthropicBody('overloaded_error', 'Overloaded') }, becomes: { retry: 'Provider is overloaded', delay: 2_000 } },
  {
    case: 'a 429 rate_limit_error with retry-after',
    arrives: { status: 429, headers: { 'retry-after': '12' }, body: anthropicBody('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit') },
    becomes: { retry: /per-minute rate limit/, delay: 12_000 },
  },
  {
    case: 'a 400 prompt is too long',
    arrives: { status: 400, body: anthropicBody('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum') },
    becomes: { overflow: /prompt is too long/ },
  },
  { case: 'a 413 request_too_large', arrives: { status: 413, body: anthropicBody('request_too_large', 'Request exceeds the maximum allowed number of bytes.') }, becomes: { overflow: /maximum allowed/ } },
  { case: 'a 401 authentication_error', arrives: { status: 401, body: anthropicBody('authentication_error', 'invalid x-api-key') }, becomes: { auth: 'invalid x-api-key' } },
  {
    case: 'a 400 credit balance too low (not retried)',
    arrives: { status: 400, body: anthropicBody('invalid_request_error', 'Your credit balance is too low to access the Anthropic API.') },
    becomes: { other: /credit balance is too low/ },
  },
]

describe('Anthropic errors', () => {
  it.each(anthropicRows)('$case', async (row) => {
    await run('anthropic', row)
  })
})

// ── Google Gemini ────────────────────────────────────────────────────────────────────────────────────────────────

const geminiChunk = { candidates: [{ content: { parts: [{ text: 'Half an ' }], role: 'model' }, index: 0 }] }
const googleBody = (code: number, status: string, message: string) => ({ error: { code, message, status } })

const googleRows: Row[] = [
  {
    case: 'an UNAVAILABLE error chunk mid-stream',
    arrives: { sse: [geminiChunk, googleBody(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.')] },
    becomes: { retry: 'The model is overloaded. Please try again later.' },
  },
  {
    case: 'an INTERNAL error chunk mid-stream',
    arrives: { sse: [geminiChunk, googleBody(500, 'INTERNAL', 'An internal error has occurred.')] },
    becomes: { retry: 'An internal error has occurred.' },
  },
  {
    case: 'a 429 RESOURCE_EXHAUSTED',
    arrives: { status: 429, body: googleBody(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).') },
    becomes: { retry: /Resource has been exhausted/ },
  },
  {
    case: 'a 400 input token count over the maximum',
    arrives: { status: 400, body: googleBody(400, 'INVALID_ARGUMENT', 'The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).') },
    becomes: { overflow: /input token count/ },
  },
  { case: 'a 403 PERMISSION_DENIED', arrives: { status: 403, body: googleBody(403, 'PERMISSION_DENIED', 'API key not valid.') }, becomes: { auth: 'API key not valid.' } },
  { case: 'a 503 UNAVAILABLE', arrives: { status: 503, body: googleBody(503, 'UNAVAILABLE', 'The model is overloaded.') }, becomes: { retry: 'The model is overloaded.' } },
]

describe('Google errors', () => {
  it.each(googleRows)('$case', async (row) => {
    await run('google', row)
  })
})

// ── OpenAI Responses ─────────────────────────────────────────────────────────────────────────────────────────────

const responsesStart = [
  { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', created_at: 1, model: 'gpt-5', service_tier: null } },
  { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { type: 'message', id: 'msg_1', status: 'in_progress', role: 'assistant', content: [] } },
  { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Half an ', logprobs: [] },
]
const responsesError = (code: string | null, message: string) => ({ type: 'error', sequence_number: 3, code, message, param: null })
const responsesNested = (type: string, code: string, message: string) => ({ type: 'error', sequence_number: 3, error: { type, code, message, param: null } })

const responsesRows: Row[] = [
  { case: 'an error event server_error mid-stream', arrives: { sse: [...responsesStart, responsesError('server_error', SERVER_ERROR)] }, becomes: { retry: SERVER_ERROR } },
  {
    case: 'a nested error event server_error mid-stream',
    arrives: { sse: [...responsesStart, responsesNested('server_error', 'server_error', 'An error occurred while processing your request.')] },
    becomes: { retry: 'An error occurred while processing your request.' },
  },
  {
    case: 'an error event context_length_exceeded',
    arrives: { sse: [...responsesStart, responsesError('context_length_exceeded', 'Your input exceeds the context window of this model.')] },
    becomes: { overflow: /exceeds the context window/ },
  },
  { case: 'an error event insufficient_quota', arrives: { sse: [...responsesStart, responsesError('insufficient_quota', QUOTA_WORDS)] }, becomes: { quota: /Quota exceeded/ } },
  {
    case: 'response.failed with a server error',
    arrives: {
      sse: [...responsesStart, { type: 'response.failed', sequence_number: 3, response: { error: { code: 'server_error', message: 'The model failed to respond.' }, incomplete_details: null } }],
    },
    becomes: { retry: 'The model failed to respond.' },
  },
  { case: 'a 429 insufficient_quota', arrives: { status: 429, body: openAIError(QUOTA_WORDS, 'insufficient_quota', 'insufficient_quota') }, becomes: { quota: /Quota exceeded/ } },
  {
    case: 'a 400 context_length_exceeded',
    arrives: { status: 400, body: openAIError('Your input exceeds the context window of this model.', 'invalid_request_error', 'context_length_exceeded') },
    becomes: { overflow: /exceeds the context window/ },
  },
  { case: 'a 500', arrives: { status: 500, body: openAIError(SERVER_ERROR, 'server_error') }, becomes: { retry: SERVER_ERROR } },
]

describe('OpenAI Responses errors', () => {
  it.each(responsesRows)('$case', async (row) => {
    await run('responses', row)
  })
})
