import { throwIfCancelled } from '../core/errors'
import type { OperationControl } from '../core/progress'
import type { ImportedRows, ImportTransaction } from '../store/share'

/**
 * Messages (with their parts) per write of an import. Small enough that a large import reports and can be cancelled
 * many times over, large enough that the extra requests cost nothing measurable.
 */
export const IMPORT_BATCH_MESSAGES = 250

/**
 * Adds an import's rows inside its one transaction, the messages and their parts a batch at a time: after each batch
 * it reports how many messages are written, and stops with `CancelledError` when `signal` asks, which aborts the
 * transaction, so a cancelled import stores nothing. Parts follow their messages in the rows (as `remapTranscript`
 * lists them); any a batch did not take are written with the last one, so the order only decides the pace.
 */
export async function addRowsInBatches(stored: ImportTransaction, rows: ImportedRows, control: OperationControl = {}, batch = IMPORT_BATCH_MESSAGES): Promise<void> {
  const { onProgress, signal } = control
  const total = rows.messages.length
  throwIfCancelled(signal, 'The import')
  await stored.addRows({ ...(rows.projects ? { projects: rows.projects } : {}), sessions: rows.sessions, messages: [], parts: [] })
  onProgress?.({ type: 'count', unit: 'messages', done: 0, total })
  let part = 0
  for (let start = 0; start < total || part < rows.parts.length; start += batch) {
    throwIfCancelled(signal, 'The import')
    const messages = rows.messages.slice(start, start + batch)
    const last = start + batch >= total
    const ids = new Set(messages.map((message) => message.id))
    const from = part
    if (last) part = rows.parts.length
    else while (part < rows.parts.length && ids.has(rows.parts[part]!.messageID)) part += 1
    await stored.addRows({ sessions: [], messages, parts: rows.parts.slice(from, part) })
    onProgress?.({ type: 'count', unit: 'messages', done: Math.min(total, start + batch), total })
  }
}
