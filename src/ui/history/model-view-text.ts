/** One block of a model message as the "what the model sees" view shows it. */
export interface ModelBlock {
  kind: 'text' | 'reasoning' | 'tool-call' | 'tool-result' | 'file' | 'other'
  /** A short label ("Tool call: bash"); absent for plain text. */
  label?: string
  text: string
}

export interface ModelMessageText {
  role: string
  blocks: ModelBlock[]
}

const ROLE_NAMES: Record<string, string> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' }

type Loose = Record<string, unknown>

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? '')

/** A tool result's output, whichever of the SDK's output shapes it has, as text. */
function outputText(output: unknown): string {
  if (!isObject(output)) return text(output)
  switch (output['type']) {
    case 'text':
    case 'error-text':
      return text(output['value'])
    case 'json':
    case 'error-json':
      return text(output['value'])
    case 'execution-denied':
      return `Denied${typeof output['reason'] === 'string' ? `: ${output['reason']}` : ''}`
    case 'content':
      return Array.isArray(output['value'])
        ? output['value'].map((item) => (isObject(item) && item['type'] === 'text' ? text(item['text']) : `[${isObject(item) ? text(item['type']) : 'content'}]`)).join('\n')
        : text(output['value'])
    default:
      return text(output)
  }
}

function block(part: unknown): ModelBlock {
  if (!isObject(part)) return { kind: 'text', text: text(part) }
  switch (part['type']) {
    case 'text':
      return { kind: 'text', text: text(part['text']) }
    case 'reasoning':
      return { kind: 'reasoning', label: 'Reasoning', text: text(part['text']) }
    case 'tool-call':
      return { kind: 'tool-call', label: `Tool call: ${text(part['toolName'])}`, text: text(part['input'] ?? part['args'] ?? {}) }
    case 'tool-result':
      return { kind: 'tool-result', label: `Tool result: ${text(part['toolName'])}`, text: outputText(part['output'] ?? part['result']) }
    case 'file':
    case 'image': {
      const name = part['filename'] ?? part['mediaType'] ?? part['mimeType'] ?? part['type']
      return { kind: 'file', label: 'Attachment', text: text(name) }
    }
    default:
      return { kind: 'other', label: text(part['type']), text: text(part) }
  }
}

/**
 * The AI SDK model messages of the next request, as readable text: a role and its blocks. The worker sends them as
 * they are (typed `unknown` across the wire), so every shape is read defensively and anything unknown is shown raw
 * rather than dropped: this view exists to show exactly what goes out.
 */
export function describeModelMessage(message: unknown): ModelMessageText {
  if (!isObject(message)) return { role: 'Unknown', blocks: [{ kind: 'other', text: text(message) }] }
  const role = typeof message['role'] === 'string' ? (ROLE_NAMES[message['role']] ?? message['role']) : 'Unknown'
  const content = message['content']
  const blocks = Array.isArray(content) ? content.map(block) : [{ kind: 'text' as const, text: text(content) }]
  return { role, blocks }
}

/** "≈ 12345 tokens": plain digits, the same in every locale, so it reads (and matches) like the worker's number. */
export function tokenEstimate(tokens: number): string {
  return `≈ ${Math.round(tokens)} tokens`
}
