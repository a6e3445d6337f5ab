// PostgreSQL for the tests: the server named by EINVOICE_TEST_POSTGRES_URL, or a throwaway cluster
// this test process starts from the PostgreSQL binaries and stops on exit. Pass `postgresMissing()`
// to cannotRun (requirements.ts): CI fails without PostgreSQL, a developer's machine skips.

import { chownSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import postgres from "postgres";

const EXTERNAL = "EINVOICE_TEST_POSTGRES_URL";

/** The newest installed server's bin folder (Debian's /usr/lib/postgresql/<major>/bin), else pg_ctl's on PATH. */
function binaries(): string | null {
  const debian = "/usr/lib/postgresql";
  const majors = existsSync(debian) ? readdirSync(debian).filter((v) => existsSync(join(debian, v, "bin", "pg_ctl"))) : [];
  majors.sort((a, b) => Number(b) - Number(a));
  if (majors.length) return join(debian, majors[0]!, "bin");
  const onPath = Bun.which("pg_ctl");
  return onPath && existsSync(join(dirname(onPath), "initdb")) ? dirname(onPath) : null;
}

/** Why no throwaway cluster can be started here, or null. */
export function clusterMissing(): string | null {
  return binaries() ? null : "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin or pg_ctl on PATH; apt-get install postgresql-15)";
}

/** Why the tests have no PostgreSQL, or null. */
export function postgresMissing(): string | null {
  return process.env[EXTERNAL] ? null : clusterMissing();
}

// PostgreSQL refuses to run as root, so as root the cluster belongs to the postgres OS user.
const asRoot = process.getuid?.() === 0;
const runAs = (command: string[]) => (asRoot ? ["runuser", "-u", "postgres", "--", ...command] : command);

async function run(command: string[]): Promise<void> {
  const child = Bun.spawn(runAs(command), { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  if (code !== 0) throw new Error(`${command.join(" ")} exited ${code}\n${out}${err}`);
}

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export interface Cluster {
  /** The URL of `database` on this cluster. */
  url(database: string): string;
  start(): Promise<void>;
  /** Stops the server at once (connections are cut, as in a crash). */
  stop(): Promise<void>;
}

/** initdb into a temp folder and start the server on a free port, stopped and removed when this process ends. */
export async function startCluster(): Promise<Cluster> {
  const bin = binaries();
  if (!bin) throw new Error(clusterMissing()!);
  const dir = mkdtempSync(join(tmpdir(), "einvoice-pg-"));
  if (asRoot) {
    const id = (flag: string) => Number(Bun.spawnSync(["id", flag, "postgres"]).stdout.toString());
    chownSync(dir, id("-u"), id("-g"));
  }
  const data = join(dir, "data");
  await run([join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const port = await freePort();
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  const pgCtl = (...args: string[]) => run([join(bin, "pg_ctl"), "-D", data, "-l", join(dir, "log"), "-w", ...args]);
  const cluster: Cluster = {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => pgCtl("-o", settings, "start"),
    stop: () => pgCtl("-m", "immediate", "stop"),
  };
  // bun test fires no "exit" event, so a watchdog outside this process stops the server and removes
  // the folder once the process has gone, however it ended.
  const stop = runAs([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"]).join(" ");
  const watch = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${stop} >/dev/null 2>&1; rm -rf ${dir}`;
  Bun.spawn(["setsid", "sh", "-c", watch], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
  await cluster.start();
  return cluster;
}

interface Server {
  /** A database to connect to for CREATE DATABASE. */
  admin: string;
  url(database: string): string;
}

let shared: Promise<Server> | undefined;

function sharedServer(): Promise<Server> {
  const external = process.env[EXTERNAL];
  shared ??= external
    ? Promise.resolve({ admin: external, url: (database: string) => Object.assign(new URL(external), { pathname: `/${database}` }).toString() })
    : startCluster().then((cluster) => ({ admin: cluster.url("postgres"), url: cluster.url }));
  return shared;
}

/** An empty database of its own, on the cluster `on` or the tests' shared server; returns its URL. */
export async function freshDatabase(on?: Cluster): Promise<string> {
  const server = on ? { admin: on.url("postgres"), url: on.url } : await sharedServer();
  const name = `t_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = postgres(server.admin, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return server.url(name);
}
