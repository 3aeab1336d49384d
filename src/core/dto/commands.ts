/** A command from the project's `.opencode/command/*.md`, as the `/` palette lists it. */
export interface ProjectCommandSummary {
  name: string
  description?: string
  agent?: string
  model?: string
  path: string
  /** Why the file cannot be used (bad front matter); the palette shows the entry disabled with this reason. */
  problem?: string
}
