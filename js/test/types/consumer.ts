// A TypeScript app using the package through its exports map and generated
// declarations: `npm run typecheck` fails when the declarations break.
import { createPinhole, errorOf, ERROR_CODES, type ErrorCode, type PinholeError } from "@pinholectx/pinhole";
import type { DescribeResponse, ExecuteResult, StoreLike } from "@pinholectx/pinhole";
import { fromRedux } from "@pinholectx/pinhole/redux";
import { fromZustand } from "@pinholectx/pinhole/zustand";
import { fromExternalStore, usePinhole, PinholeProvider, useProvidedPinhole } from "@pinholectx/pinhole/react";
import type { HostFallbackCause, PinholeState, ResolvedRequest } from "@pinholectx/pinhole";
import { fromPinia } from "@pinholectx/pinhole/pinia";
import { fromMobx } from "@pinholectx/pinhole/mobx";
import { connectFromContentScript } from "@pinholectx/pinhole/extension";

interface AppState { orders: { items: { number: string; status: string }[] } }
declare const redux: { getState(): AppState; subscribe(l: () => void): () => void };

/** Handlers as a class's methods: accepted as actions. */
class OrderActions {
  constructor(readonly log: string[]) {}
  "order.ship"(req: ResolvedRequest): void {
    this.log.push(String(req.record));
  }
}

async function main(): Promise<void> {
  const byClass = await createPinhole({ manifest: { pinhole: 1 }, store: fromRedux(redux), actions: new OrderActions([]) });
  byClass.dispose();
  const store: StoreLike<AppState> = fromRedux(redux);
  const pinhole = await createPinhole({
    wasm: "build/pinhole.wasm",
    manifest: { pinhole: 1 },
    store,
    actions: { "order.ship": async (req) => { void req.record; } },
    onAudit: (e) => {
      if (e.source === "bridge" && e.kind === "actions") void [e.undeclared, e.unhandled];
      if (e.source === "bridge" && e.kind === "snapshot_warnings") void e.warnings;
      if (e.source === "bridge" && e.kind === "boundary") void e.path;
      if (e.source === "bridge" && e.kind === "host_fallback") {
        const why: HostFallbackCause = e.cause;
        // @ts-expect-error: a cause outside the list does not type-check.
        const other: HostFallbackCause = "no_such_cause";
        void [why, other];
      }
    },
    coalesce: "frame",
  });
  const d: DescribeResponse | PinholeError = await pinhole.describe({ offset: 0, limit: 8 });
  if ("error" in d) {
    const code: ErrorCode = d.error.code;
    void code;
  }
  const known: readonly ErrorCode[] = ERROR_CODES;
  void known;
  // @ts-expect-error: an error code outside the list does not type-check.
  const unknown: ErrorCode = "no_such_code";
  void unknown;
  void errorOf("action_failed", "the handler failed", "capability");
  if (!("error" in d)) {
    const ids: string[] = d.context.recordIds;
    void ids;
  }
  const r: ExecuteResult | PinholeError = await pinhole.execute({ capability: "order.ship", record: "SO-1", snapshot: "s1" });
  if ("ok" in r && r.after) void r.after.redescribe.required;
  const off = pinhole.subscribe((e) => void e.snapshot);
  off();
  const h = pinhole.exposeWebMCP();
  const why: string | undefined = h.exposed ? undefined : h.reason;
  void why;
  await h.ready;
  h.dispose();
  pinhole.exposeToExtension().dispose();
  const client = await connectFromContentScript({ timeoutMs: 1000 });
  await client.describe();
  void [fromZustand, fromExternalStore, fromPinia, fromMobx];
  pinhole.dispose();
}
void main;

// The React integration, typed: the hook's state and the provider's props.
function Panel(): null {
  const own: PinholeState = usePinhole({ manifest: { pinhole: 1 }, store: fromRedux(redux), actions: { "order.ship": () => undefined } });
  if (own.pinhole) void own.pinhole.describe();
  const shared: PinholeState = useProvidedPinhole();
  void shared.error;
  return null;
}
void Panel;
void PinholeProvider({ options: { manifest: { pinhole: 1 }, store: fromRedux(redux) }, children: null });
