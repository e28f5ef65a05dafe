// The one type file of @pinholectx/pinhole: every public type is declared
// here and every .d.ts of the package is generated from it (the JavaScript
// sources refer to these types in JSDoc). The wire shapes mirror the Go
// types of internal/wire (docs/protocol.md); keep both in step. The interfaces
// between the bridge's own modules, which are not public, are in rooms.ts.

/** Where pinhole.wasm comes from: a compiled module, bytes, a Response,
 * a URL, or a string (a file path in Node, a URL in a browser). */
export type WasmSource = WebAssembly.Module | ArrayBuffer | ArrayBufferView | Response | URL | string;

/** A JSON value as it crosses the boundary. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

/** Every error code an answer can carry: the module's (internal/wire/errors.go)
 * and the bridge's own `action_failed`. The bridge exports the same list at
 * run time as `ERROR_CODES`; a test keeps the three in step. */
export type ErrorCode =
  | "invalid_request"
  | "record_with_window"
  | "record_count"
  | "limit_exceeds_max"
  | "invalid_offset"
  | "unknown_record"
  | "invalid_manifest"
  | "invalid_state"
  | "state_too_large"
  | "unknown_capability"
  | "capability_unavailable"
  | "invalid_input"
  | "stale_snapshot"
  | "not_loaded"
  | "internal_error"
  | "action_failed";

/** An error as every operation reports it (docs/protocol.md#errors). */
export interface PinholeError {
  error: {
    /** One of the module's codes, or `action_failed` / `internal_error` from the bridge. */
    code: ErrorCode;
    /** Names parameters, paths and limits; never quotes state values. */
    message: string;
    /** The parameter or store path at fault, when there is one. */
    param?: string;
  };
}

/** The store shape the bridge reads: what Redux and Zustand stores already are. */
export interface StoreLike<S = unknown> {
  /** The current state. */
  getState(): S;
  /** Calls listener after every change; returns its unsubscribe. `track`,
   * when called, reads exactly the declared slice (MobX uses it to know
   * what to observe). */
  subscribe(listener: () => void, track?: () => unknown): () => void;
  /** True when the store mutates its state in place (Pinia, MobX): the
   * bridge then compares slices by value instead of by reference. */
  mutable?: boolean;
}

/** The `reads` of a load answer: what the bridge may send. */
export interface Reads {
  paths: string[];
  collections: { from: string; items: string[] }[];
}

/** Bounds in force for the loaded manifest. */
export interface Limits {
  defaultLimit: number;
  maxLimit: number;
  maxRecordSelection: number;
  maxRecordIds: number;
  maxFieldChars: number;
  maxFeedback: number;
  maxUnavailable: number;
  maxResponseBytes: number;
}

/** A describe request: defaults, a window, or up to twenty record ids. */
export interface DescribeRequest {
  offset?: number;
  limit?: number;
  record?: string[];
}

/** A capability as the manifest declares it. */
export interface Capability {
  name: string;
  description: string;
  scope: "record" | "page";
  region: string;
  input: JSONValue;
}

/** One projected record. */
export interface ContextRecord {
  id: string;
  region: string;
  fields: Record<string, JSONValue>;
  truncated?: Record<string, number>;
  redacted?: string[];
  /** Fields whose value was left out (nested too deep, cyclic); each is null. */
  cut?: string[];
  userContent?: string[];
}

/** The answer to describe (docs/protocol.md#describe). */
export interface DescribeResponse {
  snapshot: string;
  limits: Limits;
  capabilities: Capability[];
  context: {
    /** `truncated` maps "route", "title" or "params/NAME" to the original length in characters. */
    page?: { route?: string; title?: string; params?: Record<string, JSONValue>; truncated?: Record<string, number> };
    /** cut: a collection of the region was left out whole (too long to read): its records are not listed. */
    regions: { id: string; parent?: string; description?: string; cut?: true }[];
    records: ContextRecord[];
    recordIds: string[];
    recordIdsTotal: number;
    /** `skipped`: records too large for maxResponseBytes even cut down; `next` is past them. */
    recordWindow?: { offset: number; limit: number; returned: number; skipped?: number; total: number; next?: number };
    recordsTotal: number;
    /** Records sharing an id with another record: none of them is referenceable. */
    duplicatesTotal?: number;
    /** Declared values left out (nested too deep, cyclic), listed in `cut` and `stateCut`. */
    cutTotal?: number;
    state: Record<string, JSONValue>;
    stateTruncated?: Record<string, number>;
    stateCut?: string[];
    feedback: { level: string; text: string; source: string; truncated?: number; redacted?: boolean }[];
    feedbackTotal: number;
    unavailable: { capability: string; record?: string; reason: string }[];
    unavailableTotal: number;
  };
}

/** An agent's request to run a capability. */
export interface ExecuteRequest {
  capability: string;
  /** The record id for a record-scope capability. */
  record?: string;
  /** Input matching the capability's input schema; aliases and placeholders only in its token slots (x-pinhole-token). */
  input?: JSONValue;
  /** The snapshot of the describe the agent decided on; required (a request without it is invalid_request, param "snapshot"). */
  snapshot: string;
}

/** What the app's handler receives: the tokens in the input's slots resolved. */
export interface ResolvedRequest {
  capability: string;
  record?: string;
  input?: JSONValue;
  snapshot: string;
}

/** The after observation (docs/protocol.md#after): what changed
 * since the request's snapshot. It is not a snapshot. */
export interface After {
  from: string;
  to: string;
  records: {
    /** Records whose projected fields changed, with only the changed fields. */
    changed: ContextRecord[];
    added: string[];
    removed: string[];
    changedTotal: number;
    addedTotal: number;
    removedTotal: number;
  };
  state: Record<string, JSONValue>;
  stateTruncated?: Record<string, number>;
  capabilities: {
    available: { capability: string; record?: string }[];
    unavailable: { capability: string; record?: string; reason: string }[];
  };
  feedback: { level: string; text: string; source: string; truncated?: number; redacted?: boolean }[];
  feedbackTotal: number;
  redescribe: { required: boolean; reasons: string[] };
}

/** A successful execute. `after` is absent when the bridge could not build
 * it (then the agent must describe again). */
export interface ExecuteResult {
  ok: true;
  snapshot: string;
  after?: After;
}

/** The app's handlers, one per capability name: own functions, or
 * inherited ones (a class's methods, called with the actions object as
 * this), or a Proxy's. */
export type Actions = Record<string, (request: ResolvedRequest) => unknown>;

/** Why a page's bridge runs the module in its own thread although it
 * tried a worker (host not given): the worker script could not be located
 * (a classic-script build without the worker option), the browser refused
 * to construct the worker, the script failed to load or start (a wrong
 * path, not JavaScript, an import it cannot resolve, a
 * Content-Security-Policy), or the worker could not read the first message. */
export type HostFallbackCause =
  | "worker_not_located"
  | "worker_refused"
  | "worker_load_failed"
  | "worker_message_failed";

/** An audit event: from the module (its own audit queue) or the bridge.
 * Events never carry store values, arguments or bodies. */
export type AuditEvent =
  | { source: "module"; op: string; snapshot?: string; [k: string]: unknown }
  | { source: "bridge"; kind: "boundary"; rule: string; path: string }
  | { source: "bridge"; kind: "boundary_suppressed"; count: number }
  | { source: "bridge"; kind: "sync_error"; code: ErrorCode; path: string }
  | { source: "bridge"; kind: "recovered"; op: string; cause: string; restoredFrom: "store" | "last_good" }
  | { source: "bridge"; kind: "action_error"; capability: string }
  /** Once, as the bridge starts, when the handlers given and the
   * manifest's capabilities differ: handlers under names the manifest does
   * not declare (undeclared: fine for an actions object shared by several
   * manifests; a console warning when one is an edit away from a
   * capability without a handler) and capabilities without one
   * (unhandled: not offered as WebMCP tools; executing one answers
   * unknown_capability). */
  | { source: "bridge"; kind: "actions"; undeclared: string[]; unhandled: string[] }
  /** When the module's warnings about the store's slice change other
   * than in their counts: a declared collection that is not an array,
   * records without a valid or with a duplicate id, values cut (the observe
   * answer's warnings; manifest places and counts, never values); empty
   * when they clear. */
  | { source: "bridge"; kind: "snapshot_warnings"; warnings: string[] }
  /** Once, as the bridge starts, when the module runs in this thread
   * because the worker could not start (host not given). */
  | { source: "bridge"; kind: "host_fallback"; cause: HostFallbackCause };

/** Options of createPinhole. */
export interface PinholeOptions<S = unknown> {
  /** pinhole.wasm: path (Node), URL, Response, bytes or module; the copy
   * the package ships when absent. */
  wasm?: WasmSource;
  /** The manifest, as an object or JSON text. */
  manifest: object | string;
  /** The store to read (use an adapter for Pinia, MobX or React-style stores). */
  store: StoreLike<S>;
  /** The app's handler per capability name: a plain object of functions,
   * or any object whose methods are the handlers (a class instance). */
  actions?: Actions | object;
  /** Per-session key for aliases and placeholders (16 to 256 characters);
   * random when absent. */
  key?: string;
  /** Receives audit events (module and bridge). */
  onAudit?: (event: AuditEvent) => void;
  /** Receives an error a handler threw (never shown to the agent). */
  onActionError?: (error: unknown, capability: string) => void;
  /** How bursts of store updates are coalesced: one observe per microtask
   * (default) or per animation frame. */
  coalesce?: "microtask" | "frame";
  /** Patches with more operations than this are sent as a full observe. */
  maxPatchOps?: number;
  /** Sees every request sent into the module and every answer (tests, debugging). */
  trace?: (direction: "in" | "out", text: string) => void;
  /** Where the module's stderr goes (dropped by default). */
  stderr?: (text: string) => void;
  /** Where the module runs: "worker", a dedicated Web Worker (the default
   * in a page; this thread when the worker script cannot be loaded and
   * host was not given, reported to onAudit as host_fallback), or "main",
   * this thread (the default elsewhere: Node, workers, extension service
   * workers). */
  host?: "worker" | "main";
  /** The worker script (host "worker"): the package's src/worker.js as
   * bundled for the page; by default located like pinhole.wasm. */
  worker?: string | URL;
}

/** What subscribe listeners receive when the snapshot changes. */
export interface SnapshotEvent {
  snapshot: string;
  recordsTotal: number;
}

/** A running bridge. */
export interface Pinhole {
  /** Describe the current context (docs/context-model.md). */
  describe(request?: DescribeRequest): Promise<DescribeResponse | PinholeError>;
  /** describe, answering the module's exact bytes. */
  describeText(request?: DescribeRequest): Promise<string>;
  /** Run a capability through the app's handler and observe the result. */
  execute(request: ExecuteRequest): Promise<ExecuteResult | PinholeError>;
  /** Called after every snapshot change; returns its unsubscribe. */
  subscribe(listener: (event: SnapshotEvent) => void): () => void;
  /** Sync now instead of waiting for the coalesced update; settles when
   * the module holds the store's slice. */
  flush(): Promise<void>;
  /** Where the module runs: "worker" or "main". */
  readonly host: "worker" | "main";
  /** Register WebMCP tools for the context and capabilities. Never throws:
   * without a modelContext the handle says exposed: false and why. */
  exposeWebMCP(options?: WebMCPOptions): WebMCPHandle;
  /** Answer a browser extension over window.postMessage + MessageChannel.
   * Where there is no window (Node, a worker) and none is passed, the
   * handle says exposed: false and why; a page with an opaque origin is
   * refused with an error. */
  exposeToExtension(options?: ExtensionOptions): ExtensionHandle;
  /** Stop: unsubscribe from the store, drop WebMCP tools and ports. */
  dispose(): void;
}

/** What usePinhole and useProvidedPinhole (`@pinholectx/pinhole/react`)
 * answer: both null while the module loads, then the bridge, or what
 * createPinhole threw. */
export interface PinholeState {
  pinhole: Pinhole | null;
  error: unknown;
}

/** What the agent hand-offs (WebMCP, the extension channel) use of a
 * bridge: the agent-facing calls and the bounds tool schemas quote. */
export interface AgentSurface {
  describe(request?: DescribeRequest): Promise<DescribeResponse | PinholeError>;
  describeText(request?: DescribeRequest): Promise<string>;
  execute(request: ExecuteRequest): Promise<ExecuteResult | PinholeError>;
  subscribe(listener: (event: SnapshotEvent) => void): () => void;
  /** The bounds of the loaded manifest. */
  readonly limits: Limits;
  /** Whether the app gave a handler for the capability; a surface without
   * it offers every capability. */
  hasAction?(capability: string): boolean;
}

/** Options of exposeWebMCP. */
export interface WebMCPOptions {
  /** The modelContext to register with; document.modelContext, then
   * navigator.modelContext, by default. */
  modelContext?: ModelContextLike;
  /** Name of the context tool; "describe_context" by default. */
  describeToolName?: string;
  /** URI of the MCP resource published where @mcp-b/global is present. */
  resourceUri?: string;
}

/** The part of WebMCP's ModelContext the bridge uses. */
export interface ModelContextLike {
  registerTool(tool: WebMCPTool, options?: { signal?: AbortSignal }): unknown;
  registerResource?(descriptor: {
    uri: string; name: string; description?: string; mimeType?: string;
    read: (uri: URL) => Promise<{ contents: { uri: string; mimeType?: string; text: string }[] }>;
  }): { unregister(): void };
}

/** A WebMCP tool descriptor as the bridge registers it. */
export interface WebMCPTool {
  name: string;
  description: string;
  inputSchema: object;
  annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean; [k: string]: unknown };
  execute(args: any): Promise<{ content: { type: "text"; text: string }[]; isError?: boolean }>;
}

/** What exposeToExtension returns. */
export interface ExtensionHandle {
  /** Whether the page now answers extension handshakes: false where there
   * is no window and none was passed (Node, a worker); reason says so. */
  exposed: boolean;
  /** Why nothing was exposed; present only when exposed is false. */
  reason?: string;
  /** Stop answering handshakes and close every port. */
  dispose(): void;
}

/** What exposeWebMCP returns. */
export interface WebMCPHandle {
  /** Whether tools were registered: false when the page has no
   * modelContext (then nothing is, and reason says why). */
  exposed: boolean;
  /** Why nothing was exposed; present only when exposed is false. */
  reason?: string;
  /** Settles when the current registrations are done. */
  ready: Promise<void>;
  /** Names of the tools registered now. */
  tools(): string[];
  /** Tools not offered now, and why: the describe tool (tool "describe")
   * or a capability's (tool "capability") whose name WebMCP does not allow
   * (ASCII letters, digits, "_", "-" and ".", 1 to 128), a capability named
   * like the describe tool, a capability the app gave no handler, or a tool
   * the modelContext refused (its error's message). A refusal by the
   * modelContext or for want of a handler is tried again at the next
   * change of the context; one by the name rules when the capability's
   * definition changes. */
  refused(): { name: string; tool: "describe" | "capability"; reason: string }[];
  /** Unregister everything. */
  dispose(): void;
}

/** The window the extension channel uses (a real Window in browsers). */
export interface WindowLike {
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  postMessage(message: unknown, targetOrigin: string, transfer?: Transferable[]): void;
  location: { origin: string };
}

/** Options of exposeToExtension. */
export interface ExtensionOptions {
  /** The page's window; globalThis.window by default. On it the page posts
   * {pinhole: "ready", channel, v: 1} when it starts listening. */
  window?: WindowLike;
  /** Name of the channel, so several bridges can share a page. */
  channel?: string;
  /** How many ports may be open at once (1 to 1024, 8 by default); a
   * handshake beyond it closes the oldest port with reason "port_limit". */
  maxPorts?: number;
}

/** Options of connectFromContentScript. */
export interface ConnectOptions {
  /** The window to say hello on and listen to; globalThis.window by default. */
  window?: WindowLike;
  /** Name of the channel; "pinhole" by default, as on the page. */
  channel?: string;
  /** How long to wait for the page's answer; 5000 ms by default. The
   * page need not be listening yet: the hello is said again on its
   * "ready", and after 1 s, 2 s, 4 s, … */
  timeoutMs?: number;
}

/** The extension side's view of the page's bridge, over the port. */
export interface ExtensionClient {
  /** The page's describe: the same answer, error objects included. */
  describe(request?: DescribeRequest): Promise<DescribeResponse | PinholeError>;
  /** The page's execute, through the page's handler. */
  execute(request: ExecuteRequest): Promise<ExecuteResult | PinholeError>;
  /** Called with each snapshot change the page announces; returns its unsubscribe. */
  subscribe(listener: (event: SnapshotEvent) => void): () => void;
  /** Ends the session: the page releases the port. After it, and after the
   * page closed the channel, describe and execute answer not_loaded. */
  close(): void;
}

/** A low-level module instance: JSON text in, JSON text out. */
export interface ModuleInstance {
  call(request: string | Uint8Array): string;
}
