import { afterAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { envelope, startHarness } from "../support/harness";
import { workRoute } from "../support/metered-route";
import { quotaStatus } from "../../src/accounts/quota";

const h = startHarness({ routes: [workRoute] });
afterAll(() => h.close());
const org = await h.org("bodies", "scale");
const key = await h.key(org, "live");
const json = { authorization: `Bearer ${key}`, "content-type": "application/json" };

/** Sends raw bytes and returns what the server answered first, without ever finishing the body. */
function rawExchange(head: string, bodyPart: string): Promise<string> {
  const port = Number(new URL(h.base).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(head + bodyPart));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answer.includes("\r\n\r\n") && answer.includes("}")) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on("error", reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer; got: ${answer}`));
    }, 5000);
  });
}

describe("request bodies", () => {
  test("a declared body over 1 MB is 413 before a byte of it is read, and costs nothing", async () => {
    const head =
      `POST /v1/test-work HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: 5000000\r\n\r\n`;
    // Only 20 bytes of the promised 5 MB ever arrive: the answer cannot depend on reading them.
    const answer = await rawExchange(head, '{"standard":"xrechn');
    expect(answer.startsWith("HTTP/1.1 413")).toBe(true);
    expect(answer).toContain('"code":"VALIDATION_ERROR"');
    expect(answer.toLowerCase()).toContain("x-request-id:");
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(0);
  });

  test("a chunked body is cut off when it passes the cap", async () => {
    const big = new ReadableStream({
      start(controller) {
        const chunk = new Uint8Array(64 * 1024).fill(32);
        for (let i = 0; i < 20; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await fetch(h.base + "/v1/test-work", { method: "POST", body: big, headers: json, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect((await envelope(res)).error.code).toBe("VALIDATION_ERROR");
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(0);
  });

  test("a content type the route does not take is 415", async () => {
    const res = await h.post("/v1/test-work", "<x/>", { authorization: `Bearer ${key}`, "content-type": "application/xml" });
    expect(res.status).toBe(415);
    const body = await envelope(res);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.message).toContain("application/json");
  });

  test("a body that is not JSON is 400 with a readable reason", async () => {
    const res = await h.post("/v1/test-work", "{nope", json);
    expect(res.status).toBe(400);
    expect((await envelope(res)).error.message).toContain("not valid UTF-8 JSON");
  });
});

describe("schema failures: details.fields", () => {
  async function fields(body: unknown) {
    const res = await h.post("/v1/test-work", JSON.stringify(body), json);
    expect(res.status).toBe(400);
    const parsed = await envelope(res);
    expect(parsed.error.code).toBe("VALIDATION_ERROR");
    return parsed.error.details.fields as { path: string; message: string; keyword: string }[];
  }

  test("a missing top-level property is named bare", async () => {
    expect(await fields({ standard: "xrechnung" })).toEqual([{ path: "action", message: "must have required property 'action'", keyword: "required" }]);
  });

  test("a missing nested property reports its parent and names the child", async () => {
    const got = await fields({ standard: "xrechnung", action: "ok", invoice: { number: "1", seller: {}, lines: [{ quantity: 1 }] } });
    expect(got).toEqual([{ path: "/invoice/seller", message: "must have required property 'name'", keyword: "required" }]);
  });

  test("a bad enum gives one const entry per allowed value and an anyOf entry on the same path", async () => {
    const got = await fields({ standard: "nope", action: "ok" });
    expect(got.map((f) => [f.path, f.keyword])).toEqual([
      ["/standard", "const"],
      ["/standard", "const"],
      ["/standard", "const"],
      ["/standard", "anyOf"],
    ]);
  });

  test("patterns, minimums, types and extra properties point into the body", async () => {
    const got = await fields({
      standard: "zugferd",
      action: "ok",
      extra: 1,
      invoice: { number: "", seller: { name: "x", email: "not-an-email" }, lines: [{ quantity: 0 }, { quantity: "2" }] },
    });
    expect(got).toContainEqual({ path: "", message: "must NOT have additional properties ('extra' is not allowed here)", keyword: "additionalProperties" });
    expect(got).toContainEqual(expect.objectContaining({ path: "/invoice/number", keyword: "minLength" }));
    expect(got).toContainEqual(expect.objectContaining({ path: "/invoice/seller/email", keyword: "format" }));
    expect(got).toContainEqual(expect.objectContaining({ path: "/invoice/lines/0/quantity", keyword: "exclusiveMinimum" }));
    expect(got).toContainEqual(expect.objectContaining({ path: "/invoice/lines/1/quantity", keyword: "type" }));
  });

  test("schema failures spend no quota", async () => {
    expect((await quotaStatus(h.storage, h.clock.now, org, true)).used).toBe(0);
  });
});
