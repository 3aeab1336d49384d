import { createSignal, For, Show, type JSX } from 'solid-js'
import type { ToolPart } from '../../../core/schema'
import { formatDuration } from '../../kit/format/time'
import { formatJson } from '../../kit/format/truncate'
import { PartActions } from '../../history/message-actions'
import { LongText } from '../long-text'
import { ProgressMeter } from '../../kit/progress/progress-meter'
import { FilePartView } from './file-part'
import {
  commandEnding,
  commandDownload,
  commandNotice,
  commandOf,
  commandRuntime,
  describeLines,
  failedExit,
  isInterrupted,
  lineCount,
  questionAnswers,
  readContent,
  toolChange,
  toolDuration,
  toolOutput,
  toolSubject,
  toolErrorText,
} from '../../kit/format/tool-summary'
import { CommandEnding, CommandLine, ReadLines, ToolDiff } from './tool-views'

const STATUS_TEXT = { pending: 'pending', running: 'running', completed: 'completed', error: 'error' } as const

/**
 * A tool call as a compact card: what ran, on what, how it went (in words, not only colour) and how long it took.
 * Edits and writes show their diff, reads the file's lines, commands the command and its exit code. Input and
 * output fold away; errors never do.
 */
export function ToolPartView(props: { part: ToolPart }): JSX.Element {
  const state = () => props.part.state
  const subject = () => toolSubject(props.part.tool, state())
  const duration = () => toolDuration(state())
  const output = () => toolOutput(state())
  const completed = () => {
    const current = state()
    return current.status === 'completed' ? current : undefined
  }
  const failed = () => {
    const current = state()
    return current.status === 'error' ? current : undefined
  }
  const hasInput = () => Object.keys(state().input).length > 0
  const exit = () => failedExit(state())
  const change = () => toolChange(state())
  const command = () => commandOf(props.part.tool, state())
  const ending = () => {
    const shown = output()
    return command() && completed() && shown ? commandEnding(shown.text) : undefined
  }
  const filePath = () => (typeof state().input.filePath === 'string' ? (state().input.filePath as string) : undefined)
  const read = () => {
    const shown = output()
    return props.part.tool === 'read' && completed() && shown ? readContent(shown.text) : undefined
  }
  // Whether the read call's Content section is open: its lines are highlighted only once someone can see them.
  const [readOpen, setReadOpen] = createSignal(false)
  return (
    <div
      class="part part-tool"
      data-status={exit() === undefined ? state().status : 'error'}
      role="group"
      aria-label={`Tool call: ${props.part.tool}`}
    >
      <div class="tool-head">
        <span class="tool-status-dot" aria-hidden="true" />
        <span class="tool-name">{props.part.tool}</span>
        <Show when={subject()}>
          <span class="tool-subject" title={subject()}>
            {subject()}
          </span>
        </Show>
        <span class="tool-tail">
          <Show when={isInterrupted(state())}>
            <span class="badge badge-warning">interrupted</span>
          </Show>
          <Show when={commandRuntime(state())}>
            {(runtime) => (
              <span class="badge badge-runtime" title={runtime().description}>
                {runtime().label}
              </span>
            )}
          </Show>
          <span class="tool-status">{exit() === undefined ? STATUS_TEXT[state().status] : `failed · exit ${exit()}`}</span>
          <Show when={duration() !== undefined}>
            <span class="faint">{formatDuration(duration()!)}</span>
          </Show>
          <PartActions part={props.part} />
        </span>
      </div>
      <Show when={command()}>{(run) => <CommandLine command={run().command} exit={run().exit} interrupted={isInterrupted(state())} />}</Show>
      <Show when={commandNotice(state())}>
        {(notice) => (
          <p class="tool-note tool-notice" role="status" aria-label="Runtime notice">
            {notice()}
          </p>
        )}
      </Show>
      <Show when={commandDownload(state())}>
        {(download) => (
          <p class="tool-note tool-download">
            <ProgressMeter label={`${download().what} download progress`} progress={{ type: 'bytes', done: download().loaded, total: download().total }} />
          </p>
        )}
      </Show>
      <Show when={ending()}>{(shown) => <CommandEnding ending={shown()} />}</Show>
      <Show when={questionAnswers(props.part.tool, state())}>
        {(asked) => (
          <dl class="tool-questions" aria-label="Questions and answers">
            <For each={asked()}>
              {(entry) => (
                <>
                  <dt>{entry.question}</dt>
                  <dd>{entry.answers.length > 0 ? entry.answers.join(', ') : state().status === 'completed' ? 'Unanswered' : 'Waiting for an answer'}</dd>
                </>
              )}
            </For>
          </dl>
        )}
      </Show>
      <Show when={failed()}>{(call) => <p class="tool-error">{toolErrorText(call().error)}</p>}</Show>
      <Show when={change()}>{(shown) => <ToolDiff change={shown()} />}</Show>
      <Show when={completed()?.time.compacted}>
        <p class="tool-note tool-pruned">
          <span class="badge">Cleared for the model</span> the model now sees a placeholder to save context; the output is
          still shown here.
        </p>
      </Show>
      <Show when={hasInput() || state().status === 'pending'}>
        <details class="tool-section">
          <summary>Input</summary>
          <Show when={hasInput()} fallback={<p class="tool-note">Waiting for the model to finish the input…</p>}>
            <pre class="tool-input">{formatJson(state().input)}</pre>
          </Show>
        </details>
      </Show>
      <Show when={read()}>
        {(content) => (
          <details class="tool-section" on:toggle={(event) => setReadOpen(event.currentTarget.open)}>
            <summary>
              <span>Content</span>
              <span class="faint"> · {describeLines(content().lines.length)}</span>
            </summary>
            <ReadLines content={content()} file={filePath()} shown={readOpen()} />
          </details>
        )}
      </Show>
      <Show when={!read() && output()}>
        {(shown) => (
          <details class="tool-section">
            <summary>
              <span>{shown().label}</span>
              <span class="faint"> · {describeLines(lineCount(shown().text))}</span>
            </summary>
            <Show when={shown().text} fallback={<p class="tool-note">(no output)</p>}>
              <LongText text={shown().text} class="tool-output" />
            </Show>
          </details>
        )}
      </Show>
      <Show when={completed()?.attachments}>
        {(attachments) => (
          <div class="tool-attachments">
            <For each={attachments()}>{(file) => <FilePartView part={file} />}</For>
          </div>
        )}
      </Show>
    </div>
  )
}
