import type { Snapshot } from '../core/schema'
import { changedFiles, loadSnapshot } from './diff'
import { takeSnapshot, trackSnapshot, type TrackInput } from './track'

/** What a `patch` part records: the snapshot before the step and the files whose content changed during it. */
export interface StepPatch {
  hash: string
  files: string[]
}

export interface StepEnd {
  /** The snapshot after the step, for the step-finish part. */
  after: string
  /** Undefined when the step changed no file (then no patch part is written). */
  patch: StepPatch | undefined
}

/** The patch between a step's two snapshots. */
export function stepPatch(before: Snapshot, after: Snapshot): StepPatch | undefined {
  const files = changedFiles(before, after)
  return files.length > 0 ? { hash: before.id, files } : undefined
}

export interface StepSnapshots {
  /** Call before the model is asked (the SDK may run tools before it says a step started): the pre-step snapshot. */
  beginStep(): Promise<string>
  /** Call when the step finishes, or in cleanup after an abort: the post-step snapshot and the step's patch. */
  endStep(before: string): Promise<StepEnd>
}

/**
 * The snapshot calls of one project's steps, bound to its store and workspace. Without a `cache` in the input,
 * hashes are remembered per workspace object, so they carry across turns.
 */
export function createStepSnapshots(input: TrackInput): StepSnapshots {
  return {
    beginStep: () => trackSnapshot(input),
    async endStep(before) {
      const [old, after] = await Promise.all([loadSnapshot(input.store, before), takeSnapshot(input)])
      return { after: after.id, patch: stepPatch(old, after) }
    },
  }
}
