import { createMemo, createSignal, createUniqueId, For, Show, type JSX } from 'solid-js'
import type { FileDiff } from '../../../core/schema'
import { describeTotals, parsePatch } from './diff-lines'
import { summarizeDiffs } from '../../../core/diff-summary'
import { formatNumber } from '../format/number'
import { PatchLines } from './patch-lines'

/** Up to this many files start unfolded; beyond it the list is an overview to pick from. */
const OPEN_FILES = 4
/** A generated file's patch can run to tens of thousands of lines: its head first, the rest on request. */
export const PATCH_LINES = 1_000

/**
 * Changed files with their status and +/- counts, each unfolding to its unified patch. Added and removed lines are
 * styled, but keep their `+` and `-` so the meaning never rests on colour; changed words are marked (`PatchLines`).
 */
export function DiffView(props: { diffs: FileDiff[]; label?: string; empty?: string }): JSX.Element {
  const totals = createMemo(() => summarizeDiffs(props.diffs))
  return (
    <div class="diff-view" role="group" aria-label={props.label ?? 'Changes'}>
      <Show when={props.diffs.length > 0} fallback={<p class="workspace-note quiet">{props.empty ?? 'No changes.'}</p>}>
        <p class="diff-totals">
          <span aria-hidden="true">
            {formatNumber(totals().files)} {totals().files === 1 ? 'file' : 'files'} ·{' '}
            <span class="diff-additions">+{formatNumber(totals().additions)}</span>{' '}
            <span class="diff-deletions">−{formatNumber(totals().deletions)}</span>
          </span>
          <span class="visually-hidden">{describeTotals(totals())}</span>
        </p>
        <ul class="diff-files">
          <For each={props.diffs}>{(diff) => <DiffFile diff={diff} open={props.diffs.length <= OPEN_FILES} />}</For>
        </ul>
      </Show>
    </div>
  )
}

function DiffFile(props: { diff: FileDiff; open: boolean }): JSX.Element {
  // Folded or not by the list's size at first; after that the fold is the reader's.
  const [open, setOpen] = createSignal(props.open)
  const [showAll, setShowAll] = createSignal(false)
  const id = createUniqueId()
  const lines = createMemo(() => (open() && props.diff.patch ? parsePatch(props.diff.patch) : []))
  const visible = createMemo(() => (showAll() ? lines() : lines().slice(0, PATCH_LINES)))
  const status = () => props.diff.status ?? 'modified'
  return (
    <li class="diff-file" data-status={status()} data-file={props.diff.file}>
      <button type="button" class="diff-file-toggle" aria-expanded={open()} aria-controls={id} onClick={() => setOpen(!open())}>
        <span class="diff-chevron" aria-hidden="true">
          {open() ? '▾' : '▸'}
        </span>
        <span class="badge diff-status">{status()}</span>
        <span class="diff-name mono" title={props.diff.file}>
          {props.diff.file}
        </span>
        <span class="diff-counts mono">
          <span class="diff-additions" aria-hidden="true">
            +{props.diff.additions}
          </span>{' '}
          <span class="diff-deletions" aria-hidden="true">
            −{props.diff.deletions}
          </span>
          <span class="visually-hidden">
            , {props.diff.additions} {props.diff.additions === 1 ? 'addition' : 'additions'}, {props.diff.deletions}{' '}
            {props.diff.deletions === 1 ? 'deletion' : 'deletions'}
          </span>
        </span>
      </button>
      <Show when={open()}>
        <div id={id} class="diff-body">
          <Show when={props.diff.patch} fallback={<p class="workspace-note quiet">No patch recorded for this file.</p>}>
            <PatchLines lines={visible()} file={props.diff.file} />
            <Show when={lines().length > visible().length}>
              <button type="button" class="button-link diff-show-all" onClick={() => setShowAll(true)}>
                Show all {formatNumber(lines().length)} lines
              </button>
            </Show>
          </Show>
        </div>
      </Show>
    </li>
  )
}
