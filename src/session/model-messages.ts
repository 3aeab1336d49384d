import type { AssistantModelMessage, ModelMessage, ToolModelMessage, UserModelMessage } from 'ai'
import type { MessageWithParts } from '../store/message-store'
import type { ModelReference, Part } from '../core/schema'
import { attachedNote } from '../core/compaction/prompt'
import { attachmentHash, attachmentText, attachmentUse, dataURLHead, missingAttachmentText, toDataURL } from '../core/attachments'
import { checkClaim, describeMismatch, type ByteMismatch } from '../core/file-type'
import { textOf } from '../core/text-sniff'

export const INTERRUPTED_TOOL_TEXT = '[Tool execution was interrupted]'
export const CLEARED_TOOL_TEXT = '[Old tool result content cleared]'
export const COMPACTION_QUESTION = 'What did we do so far?'
export const SUBTASK_TEXT = 'The following tool was executed by the user'

type UserContent = Exclude<UserModelMessage['content'], string>
type AssistantContent = Exclude<AssistantModelMessage['content'], string>

/** Files whose content already reached the model as synthetic text. */
const INLINED_MIMES = new Set(['text/plain', 'application/x-directory'])

/** How the summariser's input differs from a normal request. */
export interface ConversionOptions {
  /** Files and images become a note naming them: a summary needs to know they were there, not their bytes. */
  stripMedia?: boolean
  /** Longer tool outputs are cut to this many characters, with a note saying how much was left out. */
  toolOutputMaxChars?: number
  /** Which media the target provider accepts inside a tool result (`toolResultMediaFor`); default none. */
  toolResultMedia?: ToolResultMedia
  /**
   * The bytes of the prompts' attachments by blob hash (`loadAttachments`). Without them an attachment goes as a
   * note naming it, as media do for the summariser.
   */
  attachments?: ReadonlyMap<string, Uint8Array>
  /**
   * The SDK's provider name of the request (`anthropic.messages`, `openai.responses`, `google.generative-ai`), for
   * the rules that differ by provider (which empty text parts go). Unknown, Anthropic's rule holds: it is the one
   * every provider takes.
   */
  provider?: string
  /** Text a prompt carries after its own, by message id (a later day's date: `contextDates`). */
  notes?: ReadonlyMap<string, string>
}

/**
 * Media a provider takes inside a tool result: any file, only images, or none (they go in a user message); `unseen`
 * when the model may take no media at all, so they become a note the model passes on.
 */
export type ToolResultMedia = 'all' | 'images' | 'none' | 'unseen'

/** opencode's text for media the model cannot accept. */
export const unreadableNote = (file: { mime: string; filename?: string | undefined }) =>
  `ERROR: Cannot read ${file.filename || 'file'} (this model does not support ${file.mime.startsWith('image/') ? 'image' : 'file'} input). Inform the user.`

export const TOOL_MEDIA_TEXT = 'Attached media from tool result:'

/**
 * opencode's list of providers that accept media in tool results, by the SDK's provider name (`anthropic.messages`,
 * `openai.responses`, `google.generative-ai`, ...). Chat Completions (`openai.chat`, OpenAI-compatible servers)
 * only takes text there.
 */
export function toolResultMediaFor(provider: string, modelID: string): ToolResultMedia {
  const family = provider.split('.')
  if (family[0] === 'anthropic' || provider === 'openai.responses') return 'all'
  if (family[0] === 'google' || family[0] === 'google-vertex') return modelID.includes('gemini-3') ? 'all' : 'none'
  if (family[0] === 'xai' || family[0] === 'bedrock') return 'images'
  // An OpenAI-compatible server's model list says nothing about vision (opencode reads it from models.dev), and a
  // text-only local model would refuse every later request of the session over one image.
  if (family[0] === 'openai-compatible') return 'unseen'
  return 'none'
}

// The note lives in core: the compaction store writes it into replayed prompts too.
export { attachedNote }

export const truncatedNote = (omitted: number) => `\n[Tool output truncated for compaction: omitted ${omitted} chars]`

function userMessage(parts: Part[], options: ConversionOptions): UserModelMessage | undefined {
  const content: UserContent = []
  for (const part of parts) {
    if (part.type === 'text') {
      if (!part.ignored && part.text.length > 0) content.push({ type: 'text', text: part.text })
    } else if (part.type === 'file') {
      const hash = attachmentHash(part.url)
      if (hash) {
        content.push(options.stripMedia || !options.attachments ? { type: 'text', text: attachedNote(part.mime, part.filename) } : attachmentContent(part, options.attachments.get(hash)))
        continue
      }
      if (INLINED_MIMES.has(part.mime)) continue
      if (options.stripMedia) {
        content.push({ type: 'text', text: attachedNote(part.mime, part.filename) })
        continue
      }
      const checked = checkedFile(part)
      content.push('note' in checked ? { type: 'text', text: checked.note } : fileContent(checked.file))
    } else if (part.type === 'compaction') {
      content.push({ type: 'text', text: COMPACTION_QUESTION })
    } else if (part.type === 'subtask') {
      content.push({ type: 'text', text: SUBTASK_TEXT })
    }
  }
  return content.length ? { role: 'user', content } : undefined
}

/** A file as user content. Images too go as files, as opencode sends them: an image part has no filename. */
function fileContent(part: FilePart): UserContent[number] {
  return { type: 'file', data: part.url, mediaType: part.mime, ...(part.filename ? { filename: part.filename } : {}) }
}

/** What the model is told of a file whose bytes are not what its type claims, instead of the file. */
export const mismatchNote = (file: { filename?: string | undefined }, mismatch: ByteMismatch) =>
  describeMismatch(file.filename || 'A file', mismatch, 'it was not sent')

/**
 * An attachment as the model can take it: an image (with the type its bytes prove) or PDF as its bytes, a text file
 * as its text, a file whose bytes are not what its type claims as a note saying so, anything else as opencode's
 * "cannot read" error for the model to pass on.
 */
export function attachmentContent(part: FilePart, data: Uint8Array | undefined): UserContent[number] {
  if (!data) return { type: 'text', text: missingAttachmentText(part.filename) }
  const use = attachmentUse(part.mime, data)
  switch (use.kind) {
    case 'image':
      return fileContent({ ...part, mime: use.mime, url: toDataURL(use.mime, data) })
    case 'pdf':
      return fileContent({ ...part, url: toDataURL(part.mime, data) })
    case 'refused':
      return { type: 'text', text: mismatchNote(part, use.mismatch) }
    case 'text': {
      const text = textOf(data)
      if (text !== null) return { type: 'text', text: attachmentText(part.filename, text) }
    }
  }
  return { type: 'text', text: unreadableNote(part) }
}

/**
 * What the model is told of a file part that carries no bytes of its own: one that names its file by an address (a
 * forked or imported session's `http://…` part) would have the SDK or the provider fetch that address, a contact no
 * one allowed, so it is not sent.
 */
export const unsentFileNote = (file: { filename?: string | undefined; url: string }) =>
  /^data:/i.test(file.url)
    ? `${file.filename || 'A file'}: its data could not be read; it was not sent.`
    : `${file.filename || 'A file'}: it points to ${file.url.length > 200 ? `${file.url.slice(0, 200)}…` : file.url} instead of carrying its bytes; it was not sent.`

/**
 * A file carried in a base64 data URL (a mentioned file, a tool's media, an imported session's file part), checked
 * against its bytes before it goes as what it claims: a raster image goes with the type its bytes have, and a file
 * whose bytes break its type's promise (a "PNG" of text, a "PDF" that is an archive) becomes a note naming it. A
 * part with any other URL holds no bytes here to check, and goes as a note too (`unsentFileNote`).
 */
function checkedFile(file: FilePart): { file: FilePart } | { note: string } {
  const head = dataURLHead(file.url)
  if (!head) return { note: unsentFileNote(file) }
  const checked = checkClaim(file.mime, head)
  if (checked.kind === 'broken') return { note: mismatchNote(file, checked.mismatch) }
  const { mime } = checked
  if (mime === file.mime) return { file }
  return { file: { ...file, mime, url: `data:${mime};base64,${file.url.slice(file.url.indexOf(',') + 1)}` } }
}

function hasReplyContent(parts: Part[]): boolean {
  return parts.some((part) => part.type !== 'step-start' && part.type !== 'reasoning' && part.type !== 'step-finish')
}

function truncate(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text
  return text.slice(0, max) + truncatedNote(text.length - max)
}

type ToolPart = Extract<Part, { type: 'tool' }>
type FilePart = Extract<Part, { type: 'file' }>
type ToolOutput = Extract<ToolModelMessage['content'][number], { type: 'tool-result' }>['output']
type ToolFileContent = Extract<Extract<ToolOutput, { type: 'content' }>['value'][number], { type: 'file' }>

// Only data URLs go inside a result: its `url` form needs a URL object, which "what the model sees" cannot post.
const accepts = (media: ToolResultMedia, file: FilePart) =>
  BASE64_URL.test(file.url) && (media === 'all' || (media === 'images' && file.mime.startsWith('image/')))

const BASE64_URL = /^data:[^,]*;base64,/

/**
 * A stored attachment (a base64 data URL, as `read` makes it) as a file inside a tool result, with its filename, which
 * opencode leaves out here (docs/differences-from-opencode.md), so the model can name what it was shown.
 */
function toolFile(file: FilePart): ToolFileContent {
  const data = file.url.slice(BASE64_URL.exec(file.url)![0].length)
  return { type: 'file', mediaType: file.mime, data: { type: 'data', data }, ...(file.filename ? { filename: file.filename } : {}) }
}

/** The result the model reads; media the provider cannot take in a tool result are added to `moved`. */
function toolOutput(part: ToolPart, options: ConversionOptions, moved: FilePart[]): ToolOutput {
  const state = part.state
  switch (state.status) {
    case 'completed': {
      if (state.time.compacted) return { type: 'text', value: CLEARED_TOOL_TEXT }
      const text = truncate(state.output, options.toolOutputMaxChars)
      const checked = (options.stripMedia ? [] : (state.attachments ?? [])).map(checkedFile)
      const attachments = checked.flatMap((entry) => ('file' in entry ? [entry.file] : []))
      // A tool's file that is not what it claims (a lying image in the project, an MCP server's), or that only names an
      // address, is named instead.
      const output = [text, ...checked.flatMap((entry) => ('note' in entry ? [entry.note] : []))].join('\n')
      const media = options.toolResultMedia ?? 'none'
      if (media === 'unseen' && attachments.length) return { type: 'text', value: [output, ...attachments.map(unreadableNote)].join('\n') }
      const inline = attachments.filter((file) => accepts(media, file))
      moved.push(...attachments.filter((file) => !accepts(media, file)))
      if (inline.length === 0) return { type: 'text', value: output }
      return { type: 'content', value: [{ type: 'text', text: output }, ...inline.map(toolFile)] }
    }
    case 'error': {
      const partial = state.metadata?.output
      if (state.metadata?.interrupted && typeof partial === 'string') return { type: 'text', value: truncate(partial, options.toolOutputMaxChars) }
      return { type: 'error-text', value: state.error }
    }
    default:
      // Every tool call needs a result (Anthropic rejects a tool_use without one).
      return { type: 'error-text', value: INTERRUPTED_TOOL_TEXT }
  }
}

/** Anthropic's signed thinking: its blocks must come back in their places, empty text between them included. */
function isSigned(part: Part): boolean {
  if (part.type !== 'reasoning') return false
  const anthropic = part.metadata?.anthropic as { signature?: unknown; redactedData?: unknown } | undefined
  return typeof anthropic?.signature === 'string' || typeof anthropic?.redactedData === 'string'
}

/** OpenAI's reasoning item as the Responses API returns it with `include: ['reasoning.encrypted_content']`. */
function isEncryptedReasoning(part: Part): boolean {
  const openai = part.type === 'reasoning' ? (part.metadata?.openai as { reasoningEncryptedContent?: unknown } | undefined) : undefined
  return typeof openai?.reasoningEncryptedContent === 'string'
}

/**
 * The provider's own call metadata (e.g. Gemini's thought signature, OpenAI's item id), without what tabcode keeps
 * there. opencode hands it to the SDK as the part's `callProviderMetadata`, and the SDK's `convertToModelMessages`
 * puts it on the tool call and on its tool result alike, so a provider that reads a result's options (Anthropic's
 * cache control and caller, OpenAI's caller) finds them there too.
 */
function callOptions(part: ToolPart): { providerOptions?: never } {
  if (!part.metadata) return {}
  const { providerExecuted: _, ...provider } = part.metadata
  return Object.keys(provider).length ? { providerOptions: provider as never } : {}
}

type TextPart = Extract<Part, { type: 'text' }>

/**
 * What an empty assistant text part becomes: the text sent, or undefined when it is left out. opencode passes every
 * text part to the SDK and its provider transform drops the empty ones for Anthropic only, which refuses empty text
 * blocks; there an empty part between signed thinking blocks goes as a single space, as dropping it would move the
 * signed blocks. Elsewhere the empty part goes with the provider's metadata it carries (Gemini can sign an empty
 * text part, and its SDK leaves out only the unsigned ones); one without metadata tells the model nothing and is
 * left out, where opencode sends it bare (see docs/differences-from-opencode.md).
 */
function emptyTextRule(entry: MessageWithParts, sameModel: boolean, provider: string | undefined): (part: TextPart) => string | undefined {
  if (provider === undefined || provider.startsWith('anthropic')) {
    const signed = sameModel && entry.parts.some(isSigned)
    return () => (signed ? ' ' : undefined)
  }
  return (part) => (sameModel && part.metadata && Object.keys(part.metadata).length > 0 ? '' : undefined)
}

/**
 * One stored reply → one assistant message and its tool results per step (opencode splits at `step-start`, as the
 * SDK's UI-message conversion does), then, if the provider cannot take them in tool results, the tools' media in a
 * user message.
 */
function assistantMessages(entry: MessageWithParts, sameModel: boolean, options: ConversionOptions): ModelMessage[] {
  const messages: ModelMessage[] = []
  const moved: FilePart[] = []
  const emptyText = emptyTextRule(entry, sameModel, options.provider)
  let content: AssistantContent = []
  let results: ToolModelMessage['content'] = []
  const endStep = () => {
    if (content.length) messages.push({ role: 'assistant', content })
    if (results.length) messages.push({ role: 'tool', content: results })
    content = []
    results = []
  }
  for (const part of entry.parts) {
    if (part.type === 'step-start') {
      endStep()
    } else if (part.type === 'text') {
      const text = part.text.length > 0 ? part.text : emptyText(part)
      if (text !== undefined) content.push({ type: 'text', text, ...(sameModel && part.metadata ? { providerOptions: part.metadata as never } : {}) })
    } else if (part.type === 'reasoning') {
      // A redacted thinking block has no text, only its signed data, and an OpenAI reasoning item with no summary
      // only its encrypted content (store: false keeps nothing server-side); the same model needs either back.
      if (part.text.length === 0 && !(sameModel && (isSigned(part) || isEncryptedReasoning(part)))) continue
      // Another model cannot verify this model's reasoning signatures; it reads the thoughts as plain text.
      if (sameModel) content.push({ type: 'reasoning', text: part.text, ...(part.metadata ? { providerOptions: part.metadata as never } : {}) })
      else content.push({ type: 'text', text: part.text })
    } else if (part.type === 'tool') {
      const provider = sameModel ? callOptions(part) : {}
      content.push({ type: 'tool-call', toolCallId: part.callID, toolName: part.tool, input: part.state.input, ...provider })
      results.push({ type: 'tool-result', toolCallId: part.callID, toolName: part.tool, output: toolOutput(part, options, moved), ...provider })
    }
  }
  endStep()
  if (moved.length) {
    messages.push({ role: 'user', content: [{ type: 'text', text: TOOL_MEDIA_TEXT }, ...moved.map(fileContent)] })
  }
  return messages
}

/**
 * Stored history → the messages of the next request, following opencode's rules: failed replies are left out
 * unless they were cancelled after saying something; unfinished tool calls get an "interrupted" result; pruned
 * outputs are replaced by a short note; ignored text never goes; reasoning from another model becomes text.
 */
export function toModelMessages(history: MessageWithParts[], current: ModelReference, options: ConversionOptions = {}): ModelMessage[] {
  const messages: ModelMessage[] = []
  for (const entry of history) {
    if (entry.parts.length === 0) continue
    const info = entry.info
    if (info.role === 'user') {
      const message = userMessage(entry.parts, options)
      const note = options.notes?.get(info.id)
      if (message && note) (message.content as UserContent).push({ type: 'text', text: note })
      if (message) messages.push(message)
      continue
    }
    if (info.error && !(info.error.name === 'MessageAbortedError' && hasReplyContent(entry.parts))) continue
    const sameModel = info.providerID === current.providerID && info.modelID === current.modelID
    messages.push(...assistantMessages(entry, sameModel, options))
  }
  return messages
}
