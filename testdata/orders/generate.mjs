// Deterministic data for the orders example: the store of a fictional
// shop's orders console. `node testdata/orders/generate.mjs [N]` prints the
// state with N orders (48 by default); the demo app and the benchmarks import
// makeState. Every order holds 33 values, of which the example manifest
// declares 8, and the store holds values no agent should see (a session
// token, internal notes, customer phones, e-mails and card numbers).

const first = ["Lin", "Ada", "Omar", "Mia", "Kenji", "Zoe", "Ravi", "Lena", "Tom", "Ines", "Yusuf", "Ana"];
const last = ["Zhou", "Lovelace", "Haddad", "Novak", "Sato", "Meyer", "Iyer", "Berg", "Okafor", "Costa", "Demir", "Silva"];
const statuses = ["Ready to ship", "Awaiting payment", "Shipped", "On hold", "Ready to ship", "Delivered"];
const cities = ["Lisbon", "Osaka", "Leeds", "Graz", "Austin", "Pune"];
const notes = [
  "Leave at the side door, please.",
  "Gift wrap both items and remove the price tags.",
  "Please call before delivery.",
  "",
  "Customer asked for the blue variant if it is back in stock.",
  "Deliver after 5 pm on weekdays.",
];

/** A small deterministic PRNG (mulberry32) so every runtime builds the same data. */
function rng(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** makeOrder returns order number i (0-based). */
export function makeOrder(i, rand = rng(i + 1)) {
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const fn = pick(first), ln = pick(last);
  const net = Math.round(rand() * 50000) / 100;
  const tax = Math.round(net * 19) / 100;
  const shipping = net > 200 ? 0 : 4.9;
  const num = 1001 + i;
  return {
    number: `SO-${num}`,
    status: statuses[i % statuses.length],
    created: new Date(Date.UTC(2026, 9, 1 + (i % 28), 8 + (i % 10))).toISOString(),
    updated: new Date(Date.UTC(2026, 10, 1 + (i % 28), 9)).toISOString(),
    channel: pick(["web", "phone", "marketplace"]),
    priority: pick(["normal", "normal", "express"]),
    customer: {
      id: `C-${5000 + (i % 400)}`,
      name: `${fn} ${ln}`,
      email: `${fn.toLowerCase()}.${ln.toLowerCase()}${i}@example.com`,
      phone: `+44 20 7946 ${String(1000 + ((i * 37) % 9000)).padStart(4, "0")}`,
      address: { street: `${10 + (i % 90)} Harbour Road`, city: pick(cities), zip: String(10000 + i * 7), country: "GB" },
      vip: i % 11 === 0,
    },
    payment: {
      method: "card",
      card: `4111 1111 1111 ${String(1000 + ((i * 53) % 9000)).padStart(4, "0")}`,
      authCode: `AUTH${(i * 7919) % 100000}`,
      captured: i % 6 !== 1,
    },
    totals: { grand: Math.round((net + tax + shipping) * 100) / 100, net, tax, shipping, currency: "EUR" },
    items: 1 + (i % 5),
    note: notes[i % notes.length],
    internalNote: `Internal: fraud score reviewed by ops-${i % 7}, do not disclose`,
    warehouse: pick(["LIS-1", "OSA-2", "LDS-1"]),
    carrier: pick(["ups", "dhl"]),
    tracking: i % 6 === 2 ? `1Z${String(999000000 + i)}` : null,
    discountCode: i % 9 === 0 ? "AUTUMN10" : null,
    riskScore: Math.round(rand() * 100),
    assignee: `agent-${i % 4}`,
  };
}

/** makeState returns the whole store with n orders (48 by default). */
export function makeState(n = 48) {
  const items = [];
  for (let i = 0; i < n; i++) items.push(makeOrder(i));
  return {
    router: { path: "/orders", title: "Orders", query: { status: "all", page: "1", debug: "trace-7f3a" } },
    session: {
      tenant: "acme-shop",
      role: "clerk",
      user: { name: "Sam Clerk", email: "sam.clerk@acme-shop.example" },
      token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzYW0iLCJ0ZW5hbnQiOiJhY21lIn0.c2lnbmF0dXJlLW5vdC1yZWFsLWp3dA",
    },
    ui: {
      detailOpen: false,
      selected: null,
      toasts: [
        { message: "3 orders were updated by another user", kind: "info", origin: "server" },
      ],
    },
    orders: { filter: "all", sort: "-created", page: 1, pageSize: 8, items },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 48);
  process.stdout.write(JSON.stringify(makeState(n), null, 1) + "\n");
}
