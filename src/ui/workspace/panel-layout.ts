// No imports: the e2e page models read these too, to know how the panel starts without looking at the screen.

/** Below this width the panel is a drawer over the conversation (workbench.css uses the same breakpoint). */
export const NARROW_QUERY = '(max-width: 719.98px)'
/** Where the wide layout remembers whether the user closed the panel ('closed') or opened it. */
export const PANEL_STORAGE_KEY = 'tabcode:workspace-panel'
