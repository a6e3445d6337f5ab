// Real server processes of this checkout (`bun src/main.ts serve`) on one database, as an operator
// runs several instances: each on a free port, started at once, stopped (or killed) by the test.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../src/main.ts");

export interface Instance {
  base: string;
  process: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** Everything it printed so far. */
  output(): string;
}

async function started(child: Instance["process"], lines: string[]): Promise<string> {
  const decoder = new TextDecoder();
  let base: string | undefined;
  const read = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) lines.push(decoder.decode(chunk));
  };
  void read(child.stdout);
  void read(child.stderr);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const text = lines.join("");
    base ??= text.match(/listening on (http:\/\/localhost:\d+)/)?.[1];
    // Served only once the engine workers listen, so the first requests do not time their start.
    if (base && /validation workers ready/.test(text)) return base;
    if (child.exitCode !== null) break;
    await Bun.sleep(50);
  }
  child.kill(9);
  throw new Error(`an instance did not start:\n${lines.join("")}`);
}

/** Starts `count` servers at once on the database `env` names (DATABASE_URL or DATABASE_PATH), in a working folder of their own. */
export async function startInstances(count: number, env: Record<string, string>): Promise<Instance[]> {
  const cwd = mkdtempSync(join(tmpdir(), "instances-"));
  return Promise.all(
    Array.from({ length: count }, async () => {
      const lines: string[] = [];
      const child = Bun.spawn([process.execPath, MAIN, "serve", "--port", "0"], {
        cwd,
        env: { ...process.env, MEMORY_TARGET_MIB: "off", DRIFT_CHECK: "off", ...env },
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const base = await started(child, lines);
      return { base, process: child, output: () => lines.join("") };
    }),
  );
}

export async function stopInstances(instances: Instance[]): Promise<void> {
  for (const instance of instances) instance.process.kill("SIGTERM");
  await Promise.all(instances.map((i) => i.process.exited));
}
