/**
 * ContextSmith's library API. Everything exported here is public; nothing else is.
 * @packageDocumentation
 */
export { Engine } from "./engine.js";
export type { ContextOptions, EngineOptions, GraphQueryOptions, IndexedFile, IndexStatus, QueryOptions } from "./engine.js";
export { serveHttp } from "./http/server.js";
export type { RunningHttpServer, ServeHttpOptions } from "./http/server.js";
export { Runtime } from "./runtime/runtime.js";
export { Workspace } from "./workspace/workspace.js";
export type { RelationsView, WorkspaceOptions, WorkspaceQueryOptions, WorkspaceSymbol } from "./workspace/workspace.js";
export type {
  ExpandDirection,
  Provenance,
  RepoEntry,
  RepoStatus,
  Scope,
  SyncResult,
  WorkspaceContextResult,
  WorkspaceRankedFile,
  WorkspaceRankResult,
  WorkspaceSearchHit,
  WorkspaceSpan,
} from "./workspace/types.js";
export type { RuntimeOptions } from "./runtime/runtime.js";
export { DEFAULT_RANKING } from "./query/ranking-config.js";
export type { PackConfig, RankingConfig, RankingOverrides } from "./query/ranking-config.js";
export type { ContextResult, RankedFile, RankResult, SearchHit, SignalEvidence, SignalName, Span, SpanKind } from "./query/types.js";
export type { RunOptions } from "./core/types.js";
export type { CallHit, CallsResult, ImpactNode, ImpactResult, OverviewResult, RelatedResult, SymbolLocation, SymbolLookup } from "./graph/types.js";
export type { CallEdge, FileGraph, ImportEdge, Resolution, SymbolRef } from "./store/types.js";
export type { Note, NoteTarget, NoteView } from "./notes/types.js";
export { ContextSmithError } from "./core/errors.js";
export type { ErrorCode } from "./core/errors.js";
export type { Config, IndexOptions } from "./core/config.js";
export type { LexicalIndex, Bm25Stats, Postings } from "./store/lexical.js";
export type {
  CallSite,
  CommitInfo,
  FileHistory,
  FileRecord,
  ImportInfo,
  IndexStats,
  Language,
  ParsedFile,
  ProgressEvent,
  SkipReason,
  SymbolInfo,
  SymbolKind,
} from "./core/types.js";
