/** What `/init` sends: our own words for opencode's "write AGENTS.md" request. */
export const INIT_PROMPT = [
  'Study this project and write an AGENTS.md file at its root for coding agents that will work on it later.',
  'Look at how it is built, tested and linted (the exact commands, including how to run a single test), how the code is laid out, and the conventions it follows (naming, imports, formatting, error handling).',
  'Keep it short and specific to this project, around 20 to 30 lines. If an AGENTS.md already exists, improve it instead of starting over, and keep what is still true.',
].join(' ')
