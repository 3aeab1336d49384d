import type { ToolState } from '../../../core/schema'
import { formatNumber } from '../../format/number'

// Input fields that best say what a call is about, in the order tools usually name them.
const SUBJECT_KEYS = ['description', 'command', 'filePath', 'path', 'pattern', 'url', 'query', 'prompt']
const SUBJECT_MAX = 120

/** A one-line subject for the card: the tool's own title, else the most telling input field. */
export function toolSubject(state: ToolState): string | undefined {
  if ((state.status === 'running' || state.status === 'completed') && state.title) return state.title
  for (const key of SUBJECT_KEYS) {
    const value = state.input[key]
    if (typeof value === 'string' && value.trim()) {
      const line = value.trim().split('\n')[0]!
      return line.length > SUBJECT_MAX ? `${line.slice(0, SUBJECT_MAX - 1)}…` : line
    }
  }
  return undefined
}

export function toolDuration(state: ToolState): number | undefined {
  if (state.status === 'completed' || state.status === 'error') return Math.max(0, state.time.end - state.time.start)
  return undefined
}

/**
 * The output worth showing: the result when done, partial output kept by an interrupted or failed call, and
 * streaming output (opencode's bash puts it in `metadata.output`) while running.
 */
export function toolOutput(state: ToolState): { label: string; text: string } | undefined {
  switch (state.status) {
    case 'completed':
      // Without the notes the bash tool adds for the model: the card says how the command ended itself.
      return { label: 'Output', text: typeof state.metadata.exit === 'number' ? commandOutput(state.output) : state.output }
    case 'error':
      return typeof state.metadata?.output === 'string' && state.metadata.output
        ? { label: 'Partial output', text: state.metadata.output }
        : undefined
    case 'running': {
      const output = state.metadata?.output
      return typeof output === 'string' && output ? { label: 'Output so far', text: output } : undefined
    }
    case 'pending':
      return undefined
  }
}

/** Stopped by the user or a closed tab: an error cleanup wrote, or a command that answered its Stop with its output so far. */
export function isInterrupted(state: ToolState): boolean {
  return (state.status === 'error' || state.status === 'completed') && state.metadata?.interrupted === true
}

export function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length
}

export function describeLines(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? 'line' : 'lines'}`
}

/**
 * The exit code of a command that finished but failed: its call completed (the model gets the output and the
 * code, as opencode does), yet to a person it failed, and the card must say so.
 */
export function failedExit(state: ToolState): number | undefined {
  // A command the user stopped exits 130 by design: the card says "interrupted", not that it failed.
  if (state.status !== 'completed' || state.metadata.interrupted === true) return undefined
  const exit = state.metadata.exit
  return typeof exit === 'number' && exit !== 0 ? exit : undefined
}

/** What a command printed, without the `<shell_metadata>` notes the bash tool adds for the model (older parts kept them in the metadata too). */
export function commandOutput(value: unknown): string {
  const text = typeof value === 'string' ? value : ''
  return text.replace(/(\n\n)?<shell_metadata>\n[\s\S]*?\n<\/shell_metadata>$/, '')
}

const RUNTIMES: Record<string, { label: string; description: string }> = {
  offline: { label: 'ran offline', description: 'Ran in the offline workspace, in this tab' },
  webcontainer: { label: 'ran in WebContainer', description: 'Ran in WebContainer (Node.js and npm)' },
}

/** Which runtime served a command, for the card's badge (older parts did not record it). */
export function commandRuntime(state: ToolState): { label: string; description: string } | undefined {
  if (state.status !== 'completed') return undefined
  const runtime = state.metadata.runtime
  return typeof runtime === 'string' ? RUNTIMES[runtime] : undefined
}
