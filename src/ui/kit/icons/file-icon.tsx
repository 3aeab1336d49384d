import { Match, Switch, type JSX } from 'solid-js'
import { fileKind, type FileKind } from './file-kind'

/** A file-type icon for a tree row: decorative (the row's name says what it is), coloured per family. */
export function FileIcon(props: { name: string; type: 'file' | 'directory'; open?: boolean }): JSX.Element {
  const kind = (): FileKind => fileKind(props.name, props.type)
  return (
    <svg class="file-icon" data-kind={kind()} viewBox="0 0 16 16" fill="none" stroke="currentColor" stroke-width="1.3" stroke-linejoin="round" aria-hidden="true">
      <Switch fallback={<path d="M4 1.5h5.5L13 5v9.5H4z M9.5 1.5V5H13" />}>
        <Match when={kind() === 'folder'}>
          <path d={props.open ? 'M1.5 4v9h11l2-6h-11l-2 6M1.5 4V3h4l1.5 1.5h5.5V7' : 'M1.5 3.5h4.5l1.5 1.5h7v8.5h-13z'} />
        </Match>
        <Match when={kind() === 'code'}>
          <path d="M5.5 4.5L2 8l3.5 3.5M10.5 4.5L14 8l-3.5 3.5" />
        </Match>
        <Match when={kind() === 'markup'}>
          <path d="M5 4.5L1.5 8 5 11.5M11 4.5L14.5 8 11 11.5M9 3l-2 10" />
        </Match>
        <Match when={kind() === 'style'}>
          <path d="M3 2.5h10v11H3z M6 6h4M6 9h4" />
        </Match>
        <Match when={kind() === 'data'}>
          <path d="M6 2.5c-2 0-2 1-2 2.5s-1 2-2 3c1 0.5 2 1.5 2 3s0 2.5 2 2.5M10 2.5c2 0 2 1 2 2.5s1 2 2 3c-1 0.5-2 1.5-2 3s0 2.5-2 2.5" />
        </Match>
        <Match when={kind() === 'text'}>
          <path d="M4 1.5h5.5L13 5v9.5H4z M6 8h5M6 10.5h5M6 5.5h2" />
        </Match>
        <Match when={kind() === 'image'}>
          <path d="M2 3h12v10H2z M2 11l3.5-3.5 3 3 2-2L14 12 M10.5 6.2h0.1" />
        </Match>
        <Match when={kind() === 'archive'}>
          <path d="M3 2h10v12H3z M8 2v2M8 5v1M8 7v1M7 9h2v2H7z" />
        </Match>
        <Match when={kind() === 'config'}>
          <path d="M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 1 0 0-5M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4" />
        </Match>
      </Switch>
    </svg>
  )
}
