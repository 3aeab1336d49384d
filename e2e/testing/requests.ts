import type { ChatMessage, RecordedRequest } from './model-script'

/**
 * Reading what the scripted server received: the chat requests of one model, the text of a message whatever shape
 * the provider sent it in, and the conversation of a request without its system prompt.
 */

/** The requests the session's own model received, oldest first (title generation goes to another model). */
export function requestsOf(requests: RecordedRequest[], modelID = 'mock-model'): RecordedRequest[] {
  return requests.filter((request) => request.model === modelID)
}

/** The text of a message: a plain string, or the text parts of an array joined (tool calls read as their JSON). */
export function textOf(message: ChatMessage): string {
  const content = message.content
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part) => part.text ?? '').join('') : ''
  const calls = (message.tool_calls ?? []).map((call) => `${call.function.name} ${call.function.arguments}`).join('\n')
  return [text, calls].filter(Boolean).join('\n')
}

/** The request's messages after the system prompt(s). */
export function conversation(request: RecordedRequest): ChatMessage[] {
  return (request.body?.messages ?? []).filter((message) => message.role !== 'system')
}

/** The user messages' texts, in order. */
export function userTexts(request: RecordedRequest): string[] {
  return conversation(request)
    .filter((message) => message.role === 'user')
    .map(textOf)
}

/** A compact `role: text` line per message, for assertions that read like the conversation and for failure output. */
export function transcript(request: RecordedRequest): string[] {
  return conversation(request).map((message) => `${message.role}: ${textOf(message)}`)
}

/**
 * The summariser's request: compaction sends the history with no tools (any tool call while summarising is an
 * error), while every agent step offers its tools.
 */
export function isSummariser(request: RecordedRequest): boolean {
  return !(request.body?.tools?.length ?? 0)
}

/** Index of the first message whose text contains `needle`, or -1. */
export function indexOfText(messages: ChatMessage[], needle: string | RegExp): number {
  return messages.findIndex((message) => (typeof needle === 'string' ? textOf(message).includes(needle) : needle.test(textOf(message))))
}
