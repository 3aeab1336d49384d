/**
 * Which of the suite's parallel lanes this Playwright worker is. Each lane has its own model, git and sync server
 * (started by playwright.config.ts `webServer`, LANE_PORT_STRIDE apart), because the scripted model's queue, the
 * git server's repositories and the sync server's databases are state a test sets up and reads back: two tests at
 * once on one server would take each other's replies. The browser side needs nothing: each test has its own context.
 */
export const LANE = Number(process.env.TEST_PARALLEL_INDEX ?? 0)

/** Must match LANE_PORT_STRIDE in playwright.config.ts. */
const LANE_PORT_STRIDE = 100

/** This lane's port of a server whose first lane listens on `base`. */
export function lanePort(base: number): number {
  return base + LANE * LANE_PORT_STRIDE
}
