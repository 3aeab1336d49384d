import { createSignal, type JSX } from 'solid-js'

const SOURCES: Record<string, string> = {
  link: 'from a share link',
  file: 'from a file',
  opencode: 'from an opencode export',
  backup: 'from a backup',
}

/** Why an imported session's prompt box is disabled; the banner above it offers the way out. */
export const READ_ONLY_REASON = 'This session was imported and is read-only. Continue in a fork to reply.'

/** Where an imported session came from, in words, from its `metadata.import` stamp. */
export function importedFrom(metadata: Record<string, unknown> | undefined): string {
  const stamp = metadata?.import
  const source = stamp && typeof stamp === 'object' && 'source' in stamp ? String(stamp.source) : ''
  return SOURCES[source] ?? 'from elsewhere'
}

/**
 * Shown on an imported session: it is somebody's record, so nothing in it runs. "Continue in a fork" copies it
 * into a session of the user's own, which can be prompted like any other.
 */
export function ImportedBanner(props: { metadata: Record<string, unknown> | undefined; onFork: () => Promise<void> }): JSX.Element {
  const [forking, setForking] = createSignal(false)
  return (
    <section class="imported-banner" aria-label="Imported session">
      <p>{`Imported ${importedFrom(props.metadata)}. It is read-only: nothing in it runs, and it can't be prompted.`}</p>
      <button
        type="button"
        class="button button-small button-primary"
        disabled={forking()}
        onClick={async () => {
          setForking(true)
          try {
            await props.onFork()
          } finally {
            setForking(false)
          }
        }}
      >
        {forking() ? 'Forking…' : 'Continue in a fork'}
      </button>
    </section>
  )
}
