// Free of zod and fflate: the benchmark page builds these and hands them to the worker.
import type { SessionTranscript } from '../transcript'
import { realisticTranscript } from './realistic-session'

/** The realistic 100-message session as fixture rows (`writeFixture`), in the given project. */
export function realisticFixture(projectID: string) {
  const transcript = realisticTranscript()
  return {
    sessions: [{ ...transcript.info, projectID }],
    messages: transcript.messages.map((message) => message.info),
    parts: transcript.messages.flatMap((message) => message.parts),
  }
}

/**
 * `importMs_10kParts`: a `tabcode-session` file of the realistic session widened to 100 parts per message
 * (10,000 parts, ~2.5 MB), each part a different slice of the conversation. The bench's smoke run asks for fewer
 * parts per message.
 */
export function tenThousandPartsFile(partsPerMessage = 100): string {
  const transcript: SessionTranscript = realisticTranscript()
  for (const message of transcript.messages) {
    const text = message.parts.find((part) => part.type === 'text')
    if (text?.type !== 'text') continue
    message.parts = Array.from({ length: partsPerMessage }, (_, index) => ({
      ...text,
      id: `${text.id}${index.toString().padStart(3, '0')}`,
      text: text.text.slice(index % 40, (index % 40) + 240),
    }))
  }
  return JSON.stringify({ format: 'tabcode-session', version: 1, exported: { time: transcript.info.time.updated, app: 'benchmark' }, session: transcript })
}
