/**
 * Merging of a Chat Completions stream's consecutive text deltas before the provider SDK parses them.
 *
 * The SDK spends ~100–150 µs on every server-sent event (secure JSON parse, schema validation, a stream stage or
 * three), so a fast model or a burst of buffered network data keeps the worker busy on bookkeeping: at 3,000 deltas
 * a second that is most of a core, taken from the page's main thread on a two-core machine. What one network read
 * brings in already arrived together; merging its runs of like deltas into one event changes nothing the SDK or the
 * user sees (the same text, in the same parts, in the same order) and costs a native JSON parse per event.
 *
 * Only events that are provably the same kind of delta merge: one `data:` line, one choice, no finish reason, no
 * usage, only primitive top-level fields, and a delta that is just one piece of text (`content`, `reasoning_content`
 * or `reasoning`) or just more arguments for a tool call already started. Anything else (the first chunk of a tool
 * call, a finish, usage, errors, comments, `[DONE]`, other event fields) passes through as it came (line endings
 * aside) and ends the run, so order is kept. Nothing is held back waiting for more: each read's output goes out with that read.
 */

/** A mergeable event: its text, a signature that must match for two events to merge, and how to rebuild it. */
interface Piece {
  signature: string
  text: string
  rebuild(text: string): string
}

type Fields = { [key: string]: unknown }

const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value)
const isPrimitive = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value)
/** Fields that differ from chunk to chunk without meaning anything to a reader: a timestamp and OpenAI's padding. */
const VOLATILE = new Set(['created', 'obfuscation'])
const TEXT_FIELDS = ['content', 'reasoning_content', 'reasoning'] as const

/** The one piece of text a Chat Completions chunk carries, if that is all it carries. */
export function chatCompletionPiece(data: string): Piece | undefined {
  // Cheap rejections before parsing: every chunk worth merging is a JSON object with choices.
  if (data.charCodeAt(0) !== 123 /* { */ || !data.includes('"choices"')) return undefined
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    return undefined
  }
  if (!isRecord(value) || !Array.isArray(value.choices) || value.choices.length !== 1) return undefined
  for (const [key, field] of Object.entries(value)) {
    if (key !== 'choices' && !isPrimitive(field)) return undefined
    if (key === 'usage' && field !== null) return undefined
  }
  const choice: unknown = value.choices[0]
  if (!isRecord(choice) || !isRecord(choice.delta)) return undefined
  for (const [key, field] of Object.entries(choice)) {
    if (key !== 'delta' && key !== 'index' && field != null) return undefined
  }
  const delta = choice.delta
  const carried = Object.keys(delta).filter((key) => key !== 'role' && delta[key] != null)
  const field = carried[0]
  if (carried.length !== 1 || field === undefined) return undefined
  if (delta.role != null && typeof delta.role !== 'string') return undefined
  const signature = (text: Fields) => {
    const shape: Fields = {}
    for (const [key, entry] of Object.entries(value)) if (!VOLATILE.has(key) && key !== 'choices') shape[key] = entry
    shape.choices = [{ ...choice, delta: { ...delta, ...text } }]
    return JSON.stringify(shape)
  }
  if ((TEXT_FIELDS as readonly string[]).includes(field)) {
    const text = delta[field]
    if (typeof text !== 'string') return undefined
    return {
      signature: signature({ [field]: '' }),
      text,
      rebuild: (merged) => JSON.stringify({ ...value, choices: [{ ...choice, delta: { ...delta, [field]: merged } }] }),
    }
  }
  if (field === 'tool_calls') return toolArgumentsPiece(value, choice, delta, signature)
  return undefined
}

/** More arguments for a tool call already started: `{ index, function: { arguments } }` and nothing else. */
function toolArgumentsPiece(value: Fields, choice: Fields, delta: Fields, signature: (text: Fields) => string): Piece | undefined {
  const calls = delta.tool_calls
  if (!Array.isArray(calls) || calls.length !== 1) return undefined
  const call: unknown = calls[0]
  if (!isRecord(call) || typeof call.index !== 'number' || !isRecord(call.function)) return undefined
  for (const [key, field] of Object.entries(call)) if (key !== 'index' && key !== 'function' && field != null) return undefined
  const fn = call.function
  for (const [key, field] of Object.entries(fn)) if (key !== 'arguments' && field != null) return undefined
  if (typeof fn.arguments !== 'string') return undefined
  const withArguments = (text: string) => ({ tool_calls: [{ ...call, function: { ...fn, arguments: text } }] })
  return {
    signature: signature(withArguments('')),
    text: fn.arguments,
    rebuild: (merged) => JSON.stringify({ ...value, choices: [{ ...choice, delta: { ...delta, ...withArguments(merged) } }] }),
  }
}

/** Splits off the complete events (each ends with a blank line); the rest waits for the next read. */
function completeEvents(buffer: string): { events: string[]; rest: string } {
  const events = buffer.split('\n\n')
  const rest = events.pop() ?? ''
  return { events, rest }
}

/**
 * A byte stream transform for `text/event-stream` bodies that merges each read's runs of like events (see above).
 * `piece` decides what may merge; tests pass their own.
 */
export function coalesceEventStream(piece: (data: string) => Piece | undefined = chatCompletionPiece): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let buffer = ''
  // A lone `\r` at the end of a read may be the first half of a `\r\n`: it is normalised with the next read.
  let pendingReturn = false

  const normalise = (text: string) => {
    let joined = (pendingReturn ? '\r' : '') + text
    pendingReturn = joined.endsWith('\r')
    if (pendingReturn) joined = joined.slice(0, -1)
    return joined.includes('\r') ? joined.replace(/\r\n?/g, '\n') : joined
  }

  const coalesce = (events: string[]) => {
    let out = ''
    let run: { first: Piece; raw: string; texts: string[] } | undefined
    const close = () => {
      if (!run) return
      out += run.texts.length === 1 ? `${run.raw}\n\n` : `data: ${run.first.rebuild(run.texts.join(''))}\n\n`
      run = undefined
    }
    for (const event of events) {
      // Only an event that is a single `data:` line can merge; comments, `event:` and `id:` fields pass as they are.
      const data = event.startsWith('data:') && !event.includes('\n') ? event.slice(event.charCodeAt(5) === 32 ? 6 : 5) : undefined
      const found = data === undefined ? undefined : piece(data)
      if (found && run && found.signature === run.first.signature) {
        run.texts.push(found.text)
        continue
      }
      close()
      if (found) run = { first: found, raw: event, texts: [found.text] }
      else out += `${event}\n\n`
    }
    close()
    return out
  }

  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      buffer += normalise(decoder.decode(chunk, { stream: true }))
      const { events, rest } = completeEvents(buffer)
      buffer = rest
      if (events.length > 0) controller.enqueue(encoder.encode(coalesce(events)))
    },
    flush(controller) {
      const tail = buffer + normalise(decoder.decode()) + (pendingReturn ? '\n' : '')
      if (tail.length > 0) controller.enqueue(encoder.encode(tail))
    },
  })
}

/** The same answer with its event stream coalesced (see above); status and headers are the server's own. */
export function coalesceEventStreamResponse(response: Response): Response {
  const type = response.headers.get('content-type') ?? ''
  if (!response.ok || !response.body || !type.includes('text/event-stream')) return response
  return new Response(response.body.pipeThrough(coalesceEventStream()), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
}
