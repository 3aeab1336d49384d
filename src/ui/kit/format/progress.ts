import type { Progress } from '../../../core/progress'
import { formatBytes } from '../../../core/attachments'
import { formatNumber } from './number'

/** How far the work is, in words: "1,234 of 5,678 messages", "3.2 MB of 12.0 MB"; nothing while its size is unknown. */
export function progressCount(progress: Progress | undefined): string {
  if (!progress || progress.type === 'working') return ''
  if (progress.type === 'bytes') return `${formatBytes(progress.done)} of ${formatBytes(progress.total)}`
  return `${formatNumber(progress.done)} of ${formatNumber(progress.total)} ${progress.unit}`
}

/** The bar's value and maximum; none (an indeterminate bar) while the size is unknown. */
export function progressValue(progress: Progress | undefined): { value: number; max: number } | undefined {
  if (!progress || progress.type === 'working' || progress.total <= 0) return undefined
  return { value: Math.min(progress.done, progress.total), max: progress.total }
}
