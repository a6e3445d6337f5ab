import { afterAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { startHarness } from "../support/harness";
import { workRoute } from "../support/metered-route";
import { createApp } from "../../src/api/app";
import { DEFAULT_HTTP_SETTINGS } from "../../src/config";
import { quotaStatus } from "../../src/accounts/quota";

// A second server over the harness's deps, with a body deadline short enough to wait for.
const h = startHarness({ routes: [workRoute] });
const app = createApp(h.deps, [workRoute], { ...DEFAULT_HTTP_SETTINGS, bodyTimeoutMs: 1000 }).listen({ port: 0, hostname: "127.0.0.1" });
const port = app.server!.port!;
afterAll(() => {
  app.stop(true);
  h.close();
});

/** Writes raw bytes (then more, if `more` is given) and collects everything the server sends until it closes or `waitMs` passes. */
function exchange(first: string, options: { waitMs?: number; more?: (write: (text: string) => void, stop: () => void) => void } = {}): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    let answer = "";
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(first);
      options.more?.((text) => socket.writable && socket.write(text), () => socket.destroy());
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answer, closedByServer: false });
    }, options.waitMs ?? 5000);
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("end", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, closedByServer: true });
    });
    socket.on("error", () => {});
  });
}

/** Collects what the server logs while `work` runs, until `until` holds or 5 s pass. */
async function logsDuring(work: () => Promise<unknown>, until: (lines: { warn: string[]; error: string[] }) => boolean) {
  const lines = { warn: [] as string[], error: [] as string[] };
  const [warn, error] = [console.warn, console.error];
  console.warn = (line: string) => lines.warn.push(line);
  console.error = (line: string) => lines.error.push(line);
  try {
    await work();
    for (let waited = 0; waited < 5000 && !until(lines); waited += 50) await Bun.sleep(50);
  } finally {
    [console.warn, console.error] = [warn, error];
  }
  return lines;
}

const headOf = (answer: string) => answer.split("\r\n\r\n")[0].toLowerCase();
const org = await h.org("connections", "scale");
const key = await h.key(org, "live");
const used = async () => (await quotaStatus(h.storage, h.clock.now, org, true)).used;
const postHead = (length: number) =>
  `POST /v1/test-work HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe("bodies that never finish arriving", () => {
  test("a stalled body is answered 408 at the body deadline, the connection closed, nothing charged, and logged as an event, not an incident", async () => {
    let result = { answer: "", closedByServer: false };
    const logs = await logsDuring(
      async () => (result = await exchange(postHead(100) + '{"standard":')),
      (l) => l.warn.length > 0,
    );
    expect(result.answer.startsWith("HTTP/1.1 408")).toBe(true);
    expect(result.answer).toContain('"code":"VALIDATION_ERROR"');
    expect(result.answer).toContain("did not arrive within 1 s");
    const head = headOf(result.answer);
    expect(head).toContain("connection: close");
    expect(head).toContain("x-content-type-options: nosniff");
    expect(head).toContain("x-request-id:");
    expect(head).toMatch(/x-ratelimit-remaining: \d+/);
    expect(result.closedByServer).toBe(true);
    expect(await used()).toBe(0);
    expect(logs.error).toEqual([]);
    expect(JSON.parse(logs.warn[0])).toMatchObject({ level: "warn", event: "request body timed out", method: "POST", path: "/v1/test-work" });
  });

  test("a body that trickles in byte by byte is bounded by the same deadline", async () => {
    let timer: Timer | undefined;
    const { answer } = await exchange(postHead(10_000), {
      more: (write) => (timer = setInterval(() => write(" "), 100)),
    });
    clearInterval(timer);
    expect(answer.startsWith("HTTP/1.1 408")).toBe(true);
    expect(await used()).toBe(0);
  });

  test("a client that hangs up in the middle of its body is logged as such, never as an incident", async () => {
    const logs = await logsDuring(
      () => exchange(postHead(100) + '{"standard":', { waitMs: 300, more: (_, stop) => setTimeout(stop, 100) }),
      (l) => l.warn.length > 0,
    );
    expect(logs.error).toEqual([]);
    expect(JSON.parse(logs.warn[0])).toMatchObject({ event: "connection closed before the request body was complete", path: "/v1/test-work" });
    expect(await used()).toBe(0);
  });
});

describe("pipelining", () => {
  test("a request pipelined behind a metered one: the runtime answers neither, and no unit is spent", async () => {
    const body = JSON.stringify({ standard: "xrechnung", action: "sleep", ms: 200 });
    const pipelined = postHead(body.length) + body + `GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`;
    const before = await used();
    const { answer, closedByServer } = await exchange(pipelined, { waitMs: 2000 });
    // Bun closes the connection the moment it parses a request behind one still in progress
    // (docs/limits.md, Connections). If this starts failing, the runtime answers pipelined
    // requests now: the guard in pipeline.ts and that paragraph can go.
    expect(answer).toBe("");
    expect(closedByServer).toBe(true);
    expect(await used()).toBe(before);
  });

  test("the same requests one after the other on one connection are both answered, and the metered one is charged", async () => {
    const body = JSON.stringify({ standard: "xrechnung", action: "sleep", ms: 50 });
    const before = await used();
    const { answer } = await exchange(postHead(body.length) + body, {
      waitMs: 1500,
      more: (write) => setTimeout(() => write(`GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`), 500),
    });
    expect(answer.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(await used()).toBe(before + 1);
  });
});

describe("answers the runtime writes itself", () => {
  // Bun's HTTP parser answers these before any of our code (or Bun.serve's error handler) runs:
  // a status line and `Connection: close`, no body and no content type, so nothing a browser
  // could sniff or frame (docs/limits.md, Connections).
  const cases: [string, string, string][] = [
    ["a malformed request line", "GARBAGE\r\n\r\n", "400"],
    ["headers too large", `GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, "431"],
    ["an unknown HTTP version", "GET /v1/me HTTP/2.5\r\nHost: x\r\n\r\n", "505"],
  ];
  for (const [what, raw, status] of cases) {
    test(`${what}: ${status} with no body and no content type`, async () => {
      const { answer } = await exchange(raw);
      expect(answer.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
      const [head, body] = answer.split("\r\n\r\n");
      expect(body).toBe("");
      expect(head.toLowerCase()).not.toContain("content-type");
    });
  }
});

describe("the listener", () => {
  test("a second server on a port already taken is refused, rather than sharing the port's requests", () => {
    expect(() => createApp(h.deps).listen({ port, hostname: "127.0.0.1" })).toThrow();
  });
});
