/** Starting the service for the benchmark tools: accounts through its command line, then `serve`. */

/** Runs one command of the service (`command` is the executable, or bun and src/main.ts) on `db`; its JSON answer. */
export function cliOf(command: string[], db: string) {
  return (...args: string[]) => {
    const r = Bun.spawnSync([...command, ...args, "--db", db]);
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
    return JSON.parse(r.stdout.toString());
  };
}

/** `count` organizations on the scale plan, named `prefix-i`, and a live key of each. */
export function createKeys(cli: ReturnType<typeof cliOf>, prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    cli("orgs", "create", "--name", `${prefix}-${i}`, "--plan", "scale");
    return cli("keys", "create", "--org", `${prefix}-${i}`, "--mode", "live").key as string;
  });
}

export interface Server {
  proc: Bun.Subprocess<"ignore", "pipe", "inherit">;
  base: string;
  firstAnswerMs: number;
  /** Resolves with the time from spawn to "validation workers ready". */
  workersReady: Promise<number>;
}

/** Starts `serve` on a random port; resolves once `GET /v1/me` answers with `key`. */
export async function startServer(command: string[], db: string, key: string, env: Record<string, string> = {}): Promise<Server> {
  const port = 18000 + Math.floor(Math.random() * 2000);
  const started = performance.now();
  const proc = Bun.spawn([...command, "serve", "--port", String(port), "--db", db], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "inherit" });
  const workersReady = (async () => {
    let seen = "";
    for await (const chunk of proc.stdout) {
      seen += new TextDecoder().decode(chunk);
      if (seen.includes("validation workers ready")) return performance.now() - started;
      if (seen.includes("validation workers failed")) throw new Error(seen);
    }
    throw new Error(`the server stopped before its workers were ready:\n${seen}`);
  })();
  // Keep draining stdout afterwards, or a full pipe would stall the server.
  void workersReady.then(async () => {
    for await (const _ of proc.stdout);
  }, () => {});
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      const res = await fetch(`${base}/v1/me`, { headers: { "x-api-key": key } });
      await res.arrayBuffer();
      return { proc, base, firstAnswerMs: performance.now() - started, workersReady };
    } catch {
      if (performance.now() - started > 30_000) throw new Error("the server did not answer within 30 s");
      await Bun.sleep(5);
    }
  }
}
