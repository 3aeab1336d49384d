import type { TabcodeDatabase } from './database'
import type { Part } from '../core/schema'

/**
 * The parts of some messages, by message, each list in id order (creation order). One index read per message,
 * all issued at once: `anyOf` walks one cursor that jumps from key to key, and in Chromium each jump waits for its
 * own round trip to the storage process (a step after a turn of 10,000 tool calls went from 105 to 53 ms with
 * this; BENCHMARKS.md, issue 32's fourth round).
 * Call inside a transaction that holds `parts`.
 */
export async function partsOfMessages(db: TabcodeDatabase, messageIDs: Iterable<string>): Promise<Map<string, Part[]>> {
  const ids = [...new Set(messageIDs)]
  const lists = await Promise.all(ids.map((id) => db.parts.where('messageID').equals(id).toArray()))
  const byMessage = new Map<string, Part[]>()
  // An index gives one key's rows in primary-key order: the parts' creation order.
  ids.forEach((id, index) => {
    if (lists[index]!.length > 0) byMessage.set(id, lists[index]!)
  })
  return byMessage
}
