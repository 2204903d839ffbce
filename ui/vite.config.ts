// Vite builds the UI into dist/, which src-tauri embeds (tauri.conf.json `frontendDist`).
import { defineConfig } from "vite";
import preact from "@preact/preset-vite";

export default defineConfig({
  plugins: [preact()],
  clearScreen: false,
  build: { outDir: "dist", emptyOutDir: true, target: "safari15", sourcemap: false },
});
