import type { CreatedProject } from '../../core/protocol'
import { formatNumber } from '../kit/format/number'

/** The folders named in the note, at most; the rest are counted. */
const NAMED_FOLDERS = 3

/** What an import left out, in words, or undefined when it kept everything. */
export function leftOutText(leftOut: CreatedProject['leftOut']): string | undefined {
  if (leftOut.files === 0) return undefined
  const named = leftOut.folders.slice(0, NAMED_FOLDERS)
  const more = leftOut.folders.length - named.length
  const where = more > 0 ? `${named.join(', ')} and ${more} more folder${more === 1 ? '' : 's'}` : joinAnd(named)
  const files = `${formatNumber(leftOut.files)} file${leftOut.files === 1 ? '' : 's'}`
  return `Left out ${files} in ${where}: dependency folders and folders the .gitignore ignores are not imported. Install or build in the project to get them back.`
}

function joinAnd(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}
