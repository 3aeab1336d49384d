import { z } from 'zod'

/**
 * How far a long piece of work (an import, an export, a backup, a project's files) has come, as the worker reports it
 * to the tab that asked. `working`: under way, its size not known yet (a file being read and checked), so the bar
 * shows no value; `count`: `done` of `total` things of `unit`; `bytes`: a download, `done` of `total` bytes.
 */
export const ProgressSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('working') }),
  z.object({
    type: z.literal('count'),
    unit: z.enum(['sessions', 'messages', 'parts', 'files']),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('bytes'), done: z.number().nonnegative(), total: z.number().nonnegative() }),
])
export type Progress = z.infer<typeof ProgressSchema>
export type ProgressUnit = Extract<Progress, { type: 'count' }>['unit']

/** Where a worker operation sends its progress; the UI passes a callback, tests a plain function. */
export type ProgressSink = (progress: Progress) => void

/** What a long operation is handed: where to report, and the signal that asks it to stop. */
export interface OperationControl {
  onProgress?: ProgressSink
  signal?: AbortSignal
}
