// Types for git-http-server.mjs.

export interface GitHttpServerOptions {
  /** 0 (the default) picks a free port. The script mode uses $PORT, default 8821. */
  port?: number
  /** Default '127.0.0.1'. */
  host?: string
  /** Where the bare repositories live; a fresh temporary directory by default. */
  root?: string
  /** The token a push must carry (Basic auth password); default `DEFAULT_TOKEN`. */
  token?: string
}

export interface GitHttpServer {
  /** `http://host:port`; a repository made with `POST /_create/<name>` is at `${url}/<name>.git`. */
  url: string
  port: number
  /** The directory holding the bare repositories. */
  root: string
  close(): Promise<void>
}

export const DEFAULT_TOKEN: string

export function startGitHttpServer(options?: GitHttpServerOptions): Promise<GitHttpServer>
