import type { Workspace } from "../workspace/workspace.js";
import type { Jobs } from "./jobs.js";

/** What every route runs against: the workspace, its jobs, and whether it may be changed. */
export interface ApiContext {
  workspace: Workspace;
  jobs: Jobs;
  /** false: one repository is served (`serve --http` without `--workspace`), and changes are refused. */
  editable: boolean;
  version: string;
  log: (line: string) => void;
  /** With `--watch`: per repository, the files changed since its committed index (named by MCP answers). */
  pending?: () => Array<{ repo: string; changed: string[] }>;
}
