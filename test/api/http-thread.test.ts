// The HTTP thread names schemas and rule files but never runs them: the engines (libxml2's WASM
// module, about 35 MiB per thread, and SaxonJS) load only in the validation workers.
import { expect, test } from "bun:test";

test("loading the API loads neither libxml2-wasm nor SaxonJS", () => {
  const app = new URL("../../src/api/app.ts", import.meta.url).pathname;
  const probe = `await import(${JSON.stringify(app)}); console.log(JSON.stringify(Object.keys(require.cache)));`;
  const run = Bun.spawnSync([process.execPath, "-e", probe], { stdout: "pipe", stderr: "pipe" });
  expect(run.exitCode).toBe(0);
  const loaded: string[] = JSON.parse(run.stdout.toString());
  expect(loaded.some((path) => path.includes("/src/api/routes/validate"))).toBe(true);
  expect(loaded.filter((path) => path.includes("libxml2-wasm") || path.includes("saxon-js"))).toEqual([]);
});
