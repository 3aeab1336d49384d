export { changedFiles, decode, diffFile, diffPairs, fileDiffs, loadSnapshot, MAX_PATCH_BYTES } from './diff'
export type { EntryPair, FileContent } from './diff'
export { isBuiltinExcluded, isIgnored, parseGitignore } from '../core/gitignore'
export type { IgnoreRule } from '../core/gitignore'
export {
  canonicalManifest,
  isContentHash,
  largeFileMarker,
  largeFileSize,
  MAX_TRACKED_FILE_BYTES,
  snapshotID,
} from './manifest'
export type { Manifest, SnapshotRef, SnapshotStore } from './manifest'
export { createStepSnapshots, stepPatch } from './patch'
export type { StepEnd, StepPatch, StepSnapshots } from './patch'
export { projectFilesFromSnapshot } from './project-files'
export type { ProjectFiles, ProjectFilesInput } from './project-files'
export { restoreFiles, revertPatches, revertPlan } from './revert'
export type { RestoreInput, RestoreResult } from './revert'
export { createTrackCache, listTrackedFiles, takeSnapshot, trackSnapshot } from './track'
export type { TrackCache, TrackInput } from './track'
export { netPairs, sessionDiffs, turnDiffs, turnRange } from './turn'
export type { TurnRange } from './turn'
