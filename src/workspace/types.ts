/**
 * Data contracts of the workspace: the registry of repositories, their groups and the dependency
 * graph between them, and what a query across them answers.
 */
import type { ApiRules } from "../graph/api-links.js";
import type { NoteView } from "../notes/types.js";
import type { ContextResult, RankedFile, SearchHit, Span } from "../query/types.js";

/** A repository of the workspace: a folder of this machine, or a clone the workspace made of a URL. */
export interface RepoEntry {
  /** `[a-z0-9._-]`, unique in the workspace. */
  name: string;
  kind: "local" | "remote";
  /** Absolute: the folder itself (local) or the workspace's clone (remote). */
  path: string;
  /** Where a remote repository is cloned from. */
  url?: string;
  /** The branch a remote repository follows (its default branch when none was given). */
  branch?: string;
  addedAt: number;
}

/** The registry file: repositories, groups, and "from depends on to" relations. */
export interface RegistryData {
  version: 1;
  repos: RepoEntry[];
  /** Group name → member repository names. */
  groups: Record<string, string[]>;
  /** Edges of the dependency graph: `[from, to]` reads "from depends on to". */
  relations: Array<[string, string]>;
  /** What the API map is told that the code does not say (see {@link ApiRules}). */
  api?: ApiRules;
}

/** Which way expansion follows the dependency graph from the primary repositories. */
export type ExpandDirection = "upstream" | "downstream" | "both";

/** What a query runs over: named repositories, groups, or everything, and how far it expands. */
export interface Scope {
  repos?: readonly string[];
  groups?: readonly string[];
  all?: boolean;
  /** Follow dependencies (`upstream`: what the primary repositories depend on) or dependents (`downstream`). */
  expand?: ExpandDirection;
  /** How many hops expansion goes (default 1). */
  expandDepth?: number;
}

/** Why a repository takes part in a query. */
export interface Provenance {
  repo: string;
  relation: "primary" | "expanded";
  /** For an expanded repository: whether it was reached along dependencies or dependents. */
  direction?: "upstream" | "downstream";
  /** 0 for a primary repository. */
  hops: number;
}

/** A ranked file of a workspace query: the repository's own ranking, fused, with where it came from. */
export interface WorkspaceRankedFile extends RankedFile, Provenance {
  /** Its rank in its own repository's ranking, 1-based. */
  repoRank: number;
}

export interface WorkspaceRankResult {
  files: WorkspaceRankedFile[];
  /** The repositories queried, primary first. */
  scope: Provenance[];
  notices?: string[];
}

/** A function or class found by a workspace search. */
export interface WorkspaceSearchHit extends SearchHit, Provenance {}

/** A span of a workspace context: a span of one repository. */
export interface WorkspaceSpan extends Span {
  repo: string;
}

/** A packed context across repositories: one budget, never over. */
export interface WorkspaceContextResult extends Omit<ContextResult, "spans"> {
  /** The repository of each entry of `files` (same order). */
  repos: string[];
  spans: WorkspaceSpan[];
  /** Notes pinned to the code shown, with their repository; their paths read `repo: path`. */
  notes: Array<NoteView & { repo: string }>;
  scope: Provenance[];
}

/** What `repo list` shows of a repository. */
export interface RepoStatus extends RepoEntry {
  /** The commit the index was built at (null: no index yet, or not a git repository). */
  indexedCommit: string | null;
  /** The commit checked out now. */
  headCommit: string | null;
  /** Commits of the followed branch not checked out yet (remote: as of the last fetch), or null when unknown. */
  behind: number | null;
  files: number | null;
  indexBytes: number | null;
  /** The folder is gone or unreadable: the repository cannot be queried. */
  missing: boolean;
}

/** What syncing one repository did. */
export interface SyncResult {
  repo: string;
  ok: boolean;
  /** The commit before and after (remote repositories). */
  from?: string | null;
  to?: string | null;
  /** Files re-read by the incremental index run. */
  parsed?: number;
  removed?: number;
  ms: number;
  error?: { code: string; message: string };
}
