import { For, Show, type JSX } from 'solid-js'
import type { Tokens } from '../../core/schema'
import { describeTokens, formatCost, tokenSegments } from '../kit/format/usage'

function Separator(): JSX.Element {
  return (
    <span class="usage-separator" aria-hidden="true">
      {' · '}
    </span>
  )
}

/** Tokens and cost, quiet, in one line: "1.2k in · 340 out · $0.0012". The exact counts are in the tooltip. */
export function UsageLine(props: { tokens?: Tokens | undefined; cost?: number | undefined }): JSX.Element {
  return (
    <span class="usage">
      <Show when={props.tokens}>
        {(tokens) => (
          <span class="usage-tokens" title={describeTokens(tokens())}>
            <For each={tokenSegments(tokens())}>
              {(segment, index) => (
                <>
                  <Show when={index() > 0}>
                    <Separator />
                  </Show>
                  <span>
                    {segment.value} {segment.label}
                  </span>
                </>
              )}
            </For>
          </span>
        )}
      </Show>
      <Show when={props.cost !== undefined}>
        <Show when={props.tokens}>
          <Separator />
        </Show>
        <span class="usage-cost" title="Cost">
          {formatCost(props.cost ?? 0)}
        </span>
      </Show>
    </span>
  )
}
