import type { SessionTranscript } from '../transcript'

/**
 * The transcript with ids replaced by their order of appearance (and the project, which an import picks, and the
 * import stamp, which an import adds, left out): two transcripts that are "equal but for ids" normalise equal.
 */
export function withoutIds(transcript: SessionTranscript): unknown {
  const names = new Map<string, string>()
  const name = (id: string) => {
    if (!names.has(id)) names.set(id, `#${names.size}`)
    return names.get(id)!
  }
  const collect = (node: SessionTranscript) => {
    name(node.info.id)
    for (const message of node.messages) {
      name(message.info.id)
      for (const part of message.parts) {
        name(part.id)
        if (part.type === 'tool' && part.state.status === 'completed') for (const file of part.state.attachments ?? []) name(file.id)
      }
    }
    for (const child of node.children ?? []) collect(child)
  }
  collect(transcript)
  const replace = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') return names.get(value) ?? value
    if (Array.isArray(value)) return value.map((item) => replace(item))
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {}
      for (const [field, item] of Object.entries(value)) {
        if (field === 'projectID' && key === 'info') continue
        if (field === 'metadata' && key === 'info' && item && typeof item === 'object') {
          const { import: _stamp, ...rest } = item as Record<string, unknown>
          if (Object.keys(rest).length) out[field] = replace(rest)
          continue
        }
        out[field] = replace(item, field)
      }
      return out
    }
    return value
  }
  return replace(transcript)
}
