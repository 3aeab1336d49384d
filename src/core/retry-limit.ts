/** Unlike opencode, which retries for as long as the error stays retryable, a turn gives up after this many. */
export const DEFAULT_RETRY_LIMIT = 8
