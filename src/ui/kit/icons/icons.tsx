import type { JSX } from 'solid-js'

/** Small stroke icons (16px grid). Always decorative: the button around them carries the accessible name. */
function Icon(props: { children: JSX.Element }): JSX.Element {
  return (
    <svg
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      stroke-width="1.5"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      {props.children}
    </svg>
  )
}

export const PlusIcon = () => (
  <Icon>
    <path d="M8 3v10M3 8h10" />
  </Icon>
)

export const PencilIcon = () => (
  <Icon>
    <path d="M10.5 2.5l3 3L6 13H3v-3z" />
  </Icon>
)

export const ArchiveIcon = () => (
  <Icon>
    <path d="M2 3h12v3H2zM3 6v7h10V6M6.5 9h3" />
  </Icon>
)

export const UnarchiveIcon = () => (
  <Icon>
    <path d="M2 3h12v3H2zM3 6v7h10V6M8 12V8.5M6.5 10L8 8.5 9.5 10" />
  </Icon>
)

export const TrashIcon = () => (
  <Icon>
    <path d="M2.5 4h11M6 4V2.5h4V4M4 4l.75 9.5h6.5L12 4" />
  </Icon>
)

export const KeyboardIcon = () => (
  <Icon>
    <path d="M1.5 4h13v8h-13zM4 6.5h.01M6.5 6.5h.01M9 6.5h.01M11.5 6.5h.01M5 9.5h6" />
  </Icon>
)

export const SidebarIcon = () => (
  <Icon>
    <path d="M2 3h12v10H2zM6 3v10" />
  </Icon>
)

export const CloseIcon = () => (
  <Icon>
    <path d="M4 4l8 8M12 4l-8 8" />
  </Icon>
)

/** Settings: two sliders. */
export const SettingsIcon = () => (
  <Icon>
    <path d="M2.5 4.5h6M11.5 4.5h2M2.5 11.5h2M7.5 11.5h6" />
    <circle cx="10" cy="4.5" r="1.5" />
    <circle cx="6" cy="11.5" r="1.5" />
  </Icon>
)

export const ChartIcon = () => (
  <Icon>
    <path d="M2.5 13.5h11M4.5 11V8M8 11V4.5M11.5 11V6.5" />
  </Icon>
)

export const MoreIcon = () => (
  <Icon>
    <path d="M3.5 8h.01M8 8h.01M12.5 8h.01" stroke-width="2.5" />
  </Icon>
)

export const PaperclipIcon = () => (
  <Icon>
    <path d="M10.5 5.5 6 10a1.4 1.4 0 0 0 2 2l5-5a2.8 2.8 0 0 0-4-4l-5 5a4.2 4.2 0 0 0 6 6l4-4" />
  </Icon>
)
