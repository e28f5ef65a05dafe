// A Vite + React app with a Zustand store and Pinhole: <PinholeProvider>
// starts one bridge (once, also under StrictMode) and disposes it on
// unmount; the agent panel describes the context and ships an order through
// the order.ship capability, whose handler is the app's own store action.
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { fromZustand } from "@pinholectx/pinhole/zustand";
import { PinholeProvider, useProvidedPinhole } from "@pinholectx/pinhole/react";
import manifest from "./pinhole.manifest.json";
import { useShop } from "./store.js";

const options = {
  manifest,
  store: fromZustand(useShop),
  actions: { "order.ship": ({ record }) => useShop.getState().ship(record) },
};

function Orders() {
  const orders = useShop((s) => s.orders);
  return (
    <table>
      <tbody>
        {orders.map((o) => (
          <tr key={o.id} data-id={o.id}>
            <td>{o.id}</td><td>{o.customer}</td><td>{o.email}</td><td className="status">{o.status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AgentPanel() {
  const { pinhole, error } = useProvidedPinhole();
  const [context, setContext] = useState(null);
  const [result, setResult] = useState(null);
  if (error) return <p role="alert">Pinhole failed to start: {String(error.message ?? error)}</p>;
  if (!pinhole) return <p>Loading pinhole.wasm…</p>;
  const describe = async () => setContext(await pinhole.describe());
  const ship = async (record) => {
    setResult(await pinhole.execute({ capability: "order.ship", record, input: { carrier: "ups" }, snapshot: context.snapshot }));
  };
  return (
    <section id="agent" data-ready="true">
      <button id="describe" onClick={describe}>Describe (what the agent sees)</button>
      <button id="ship" disabled={!context} onClick={() => ship("A-1")}>Ship A-1 as the agent</button>
      <pre id="context">{context ? JSON.stringify(context, null, 2) : ""}</pre>
      <pre id="result">{result ? JSON.stringify(result, null, 2) : ""}</pre>
    </section>
  );
}

function App() {
  const [agent, setAgent] = useState(true);
  return (
    <main>
      <h1>Orders</h1>
      <Orders />
      <label>
        <input id="agent-on" type="checkbox" checked={agent} onChange={(e) => setAgent(e.target.checked)} /> agent panel
      </label>
      {agent && (
        <PinholeProvider options={options}>
          <AgentPanel />
        </PinholeProvider>
      )}
    </main>
  );
}

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
