import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Nothing for Pinhole here: Vite finds the bridge's
// new URL("../pinhole.wasm", import.meta.url) and emits the module as an
// asset, in `vite build` and under the dev server alike.
export default defineConfig({
  plugins: [react()],
});
