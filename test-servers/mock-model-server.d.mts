// Types for mock-model-server.mjs. The script format and request log are typed in model-script.ts.

export interface MockModelServerOptions {
  /** 0 (the default) picks a free port. The script mode uses $PORT, default 8787. */
  port?: number
  /** Default '127.0.0.1'. */
  host?: string
  /** Log each request to stdout and handler failures to stderr. */
  verbose?: boolean
}

export interface MockModelServer {
  /** `http://host:port` with the real port; the OpenAI-compatible base URL is `${url}/v1`. */
  url: string
  port: number
  /** Destroys open streams (their requests settle as 'server-closed') and stops listening. */
  close(): Promise<void>
}

export function startMockModelServer(options?: MockModelServerOptions): Promise<MockModelServer>
