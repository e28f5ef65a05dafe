// The app's store: Zustand, with the data the app needs (including what no
// agent should see: e-mail addresses in full, card tokens, the API key).
import { create } from "zustand";

export const useShop = create((set) => ({
  orders: [
    { id: "A-1", customer: "Ada Lovelace", email: "ada@example.com", status: "ready", total: 120, cardToken: "tok_live_4242" },
    { id: "A-2", customer: "Alan Turing", email: "alan@example.com", status: "waiting", total: 80, cardToken: "tok_live_1881" },
    { id: "A-3", customer: "Grace Hopper", email: "grace@example.com", status: "ready", total: 64, cardToken: "tok_live_1906" },
  ],
  session: { apiKey: "sk_live_secret" },
  ship: (id) => set((s) => ({ orders: s.orders.map((o) => (o.id === id ? { ...o, status: "shipped" } : o)) })),
}));
