import { Match, Switch, type JSX } from 'solid-js'
import type { Part, PartOf, PartType } from '../../../core/schema'
import { AgentPartView } from './agent-part'
import { CompactionPartView } from './compaction-part'
import { FilePartView } from './file-part'
import { PatchPartView } from './patch-part'
import { ReasoningPartView } from './reasoning-part'
import { RetryPartView } from './retry-part'
import { SnapshotPartView } from './snapshot-part'
import { StepFinishPartView } from './step-finish-part'
import { StepStartPartView } from './step-start-part'
import { SubtaskPartView } from './subtask-part'
import { TextPartView } from './text-part'
import { ToolPartView } from './tool-part'

/** One part, by type. Unknown types (a newer build's rows) render nothing rather than break the message. */
export function PartView(props: { part: Part; role: 'user' | 'assistant' }): JSX.Element {
  const as = <T extends PartType>(type: T): PartOf<T> | undefined =>
    props.part.type === type ? (props.part as PartOf<T>) : undefined
  return (
    <Switch>
      <Match when={as('text')}>{(part) => <TextPartView part={part()} role={props.role} />}</Match>
      <Match when={as('reasoning')}>{(part) => <ReasoningPartView part={part()} />}</Match>
      <Match when={as('tool')}>{(part) => <ToolPartView part={part()} />}</Match>
      <Match when={as('file')}>{(part) => <FilePartView part={part()} />}</Match>
      <Match when={as('agent')}>{(part) => <AgentPartView part={part()} />}</Match>
      <Match when={as('subtask')}>{(part) => <SubtaskPartView part={part()} />}</Match>
      <Match when={as('step-start')}>
        <StepStartPartView />
      </Match>
      <Match when={as('step-finish')}>
        <StepFinishPartView />
      </Match>
      <Match when={as('snapshot')}>
        <SnapshotPartView />
      </Match>
      <Match when={as('patch')}>{(part) => <PatchPartView part={part()} />}</Match>
      <Match when={as('retry')}>{(part) => <RetryPartView part={part()} />}</Match>
      <Match when={as('compaction')}>{(part) => <CompactionPartView part={part()} />}</Match>
    </Switch>
  )
}
