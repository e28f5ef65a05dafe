// The bridge's rooms and the interfaces between them (not part of the
// package's public API). createPinhole (index.js) wires them:
//
//   Host (host.js)          where the instance runs: this thread or a Web
//                           Worker (worker.js)
//   Link (link.js)          the module instance, the load request, snapshot
//                           ids as agents see them across restarts, one
//                           piece of work with the module at a time
//   Recovery (recovery.js)  a trapped instance replaced, its state restored
//   Sync (sync.js)          the store followed: slices, patches, coalescing
//   Audit (audit.js)        the bridge's events and the module's queue
//   Agent (execute.js)      describe and execute
//
// The agent hand-offs (webmcp.js, extension.js) see only AgentSurface
// (types.ts).
import type {
  AuditEvent, DescribeRequest, ExecuteRequest, ExecuteResult, Limits,
  PinholeError, Reads, SnapshotEvent, StoreLike,
} from "./types.js";

/** The answer to load. */
export interface LoadAnswer {
  reads: Reads;
  limits: Limits;
  [k: string]: unknown;
}

/** What a Link is made with. */
export interface LinkOptions {
  /** The manifest as JSON text, sent as it is. */
  manifestText: string;
  /** The per-session key for aliases and placeholders. */
  key: string;
  trace?: (direction: "in" | "out", text: string) => void;
  stderr?: (text: string) => void;
}

/** A request to the module: an op and its parameters. */
export type ModuleRequest = Record<string, unknown> & { op: string };

/** Where the module runs (host.js): calls are asynchronous, a trap rejects. */
export interface ModuleHost {
  readonly kind: "main" | "worker";
  /** The instance as tests see it (in a worker: the worker), or null. */
  readonly instance: unknown;
  /** Start a new instance, dropping the current one. */
  open(): Promise<void>;
  /** One request text in, the response text out. */
  call(request: string): Promise<string>;
  /** Drop the instance (and the worker). */
  close(): void;
  /** End the current task before a large request, where that helps the page (a worker host). */
  breathe?(): Promise<void>;
}

/** The module instance and the snapshot numbering agents see. */
export interface ModuleLink {
  /** Where the instance runs. */
  readonly host: ModuleHost;
  /** The current instance as its host shows it; null once closed. */
  readonly instance: unknown;
  readonly closed: boolean;
  /** Run fn when the work queued before it is done; later work waits for fn. */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T>;
  /** Start a new instance and load the manifest; throws PinholeSetupError. */
  open(): Promise<LoadAnswer>;
  /** Replace a trapped instance: new numbering epoch, then open. */
  restart(): Promise<LoadAnswer>;
  /** Drop the instance. */
  close(): void;
  /** Send request text; a trap rejects. The caller holds the lane. */
  raw(text: string): Promise<string>;
  /** Send a request object; a trap rejects. The caller holds the lane. */
  request(request: ModuleRequest): Promise<string>;
  /** Parse the answer to op, its snapshot ids as agents see them. */
  parse(op: string, text: string): any;
  /** The answer to op as text, its snapshot ids as agents see them. */
  text(op: string, text: string): string;
  /** A module id → the id agents see. */
  external(id: string): string;
  /** An id agents saw → the module's id, or null when it predates a restart. */
  internal(id: string): string | null;
}

/** Sends with the module's lane held (inside ModuleCaller.serial). */
export interface HeldCaller {
  /** The parsed answer; null for an observe during which the module restarted. */
  send(request: ModuleRequest): Promise<any>;
}

/**
 * Requests that survive a trap (Recovery). The snapshot id a request names
 * (prepare's snapshot, after's since) is the agent's: it is mapped to the
 * current instance's id at each attempt, and a request naming an id from
 * before a restart is answered stale_snapshot without reaching the module.
 */
export interface ModuleCaller {
  /** The parsed answer; null for an observe during which the module restarted. */
  send(request: ModuleRequest): Promise<any>;
  /** The answer as text. */
  sendText(request: ModuleRequest): Promise<string>;
  /** Run fn alone with the module, sending through held. */
  serial<T>(fn: (held: HeldCaller) => T | Promise<T>): Promise<T>;
  /** An id agents saw → the module's id, or null when it predates a restart. */
  internal(id: string): string | null;
}

/** What Recovery restores a new instance from (Sync). */
export interface StateSource {
  /** The store's declared slice now, or undefined when it cannot be read. */
  currentSlice(): Record<string, any> | undefined;
  /** The last slice the module accepted. */
  lastGood(): Record<string, any>;
  /** A new instance accepted state with this observe answer. */
  accepted(state: Record<string, any>, observed: any): void;
}

/** Audit events out. */
export interface AuditRoom {
  emit(event: AuditEvent): void;
  /** A value left out at the boundary (deduplicated, bounded). */
  warn(rule: string, path: string): void;
  /** Hand on the module's queued events. */
  drain(): Promise<void>;
}

/** What a Sync is made with. */
export interface SyncOptions {
  store: StoreLike<unknown>;
  reads: Reads;
  caller: ModuleCaller;
  audit: AuditRoom;
  coalesce?: "microtask" | "frame";
  maxPatchOps?: number;
  /** The manifest's sessionScope: left out of the slice when a part of it cannot cross. */
  scope?: string;
}

/** The store followed. */
export interface SyncRoom {
  /** The snapshot id agents see now. */
  readonly snapshot: string;
  /** Why the module does not hold the store's slice now, or null. */
  readonly error: PinholeError | null;
  /** Observe once and follow the store. */
  start(): Promise<void>;
  /** Stop following the store; drop listeners. */
  stop(): void;
  /** Mark the store changed. */
  touch(): void;
  /** Sync now if the store changed; settles when the module holds the slice. */
  flush(): Promise<void>;
  subscribe(listener: (event: SnapshotEvent) => void): () => void;
}

/** What an Agent is made with. */
export interface AgentOptions {
  sync: SyncRoom;
  caller: ModuleCaller;
  audit: AuditRoom;
  /** The app's handlers (PinholeOptions.actions), or {}. */
  actions: object;
  onActionError?: (error: unknown, capability: string) => void;
  /** True once the bridge is disposed. */
  closed: () => boolean;
}

/** The agent's calls. */
export interface AgentRoom {
  describeText(request?: DescribeRequest): Promise<string>;
  describe(request?: DescribeRequest): Promise<any>;
  execute(request: ExecuteRequest): Promise<ExecuteResult | PinholeError>;
}
