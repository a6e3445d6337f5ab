import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { zipSync } from "fflate";
import type { Pin } from "../../src/rulesets/pins";
import { HashMismatchError, mirrorDir, syncRulesets } from "../../src/rulesets/sync";
import { sha256Hex as sha256 } from "../../src/rulesets/seal";

const enc = new TextEncoder();
let work: string;
let mirror: string;
let target: string;

function pin(path: string, content: string, extra: Partial<Pin> = {}): Pin {
  return {
    key: "k",
    version: "1",
    path,
    sha256: sha256(content),
    upstreamUrl: `https://example.test/${path}`,
    zipMember: null,
    role: "support",
    licence: "MIT",
    releaseDate: null,
    sourceRepo: "o/r",
    sourceTag: null,
    sourceCommit: "0".repeat(40),
    ...extra,
  };
}

function put(root: string, path: string, content: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "sync-test-"));
  mirror = join(work, "mirror");
  target = join(work, "target");
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe("sync from a mirror", () => {
  test("copies, verifies and then skips files already present", async () => {
    const pins = [pin("k/1/a.xsl", "<a/>"), pin("k/1/dir with space/b.xml", "<b/>")];
    put(mirror, pins[0].path, "<a/>");
    put(mirror, pins[1].path, "<b/>");
    expect(await syncRulesets({ mirror, target, pins })).toEqual({ present: 0, copied: 2, downloaded: 0 });
    expect(readFileSync(join(target, "k/1/dir with space/b.xml"), "utf8")).toBe("<b/>");
    expect(await syncRulesets({ mirror, target, pins })).toEqual({ present: 2, copied: 0, downloaded: 0 });
  });

  test("replaces a present file whose hash is wrong", async () => {
    const pins = [pin("k/1/a.xsl", "<a/>")];
    put(mirror, pins[0].path, "<a/>");
    put(target, pins[0].path, "<tampered/>");
    expect((await syncRulesets({ mirror, target, pins })).copied).toBe(1);
    expect(readFileSync(join(target, pins[0].path), "utf8")).toBe("<a/>");
  });

  test("refuses a file with the wrong hash, naming path and both hashes, writing nothing", async () => {
    const pins = [pin("k/1/a.xsl", "<a/>")];
    put(mirror, pins[0].path, "<evil/>");
    const err = await syncRulesets({ mirror, target, pins }).catch((e) => e);
    expect(err).toBeInstanceOf(HashMismatchError);
    expect(err.message).toContain("k/1/a.xsl");
    expect(err.message).toContain(sha256("<a/>"));
    expect(err.message).toContain(sha256("<evil/>"));
    expect(existsSync(join(target, "k/1"))).toBe(false);
  });

  test("fails clearly when the mirror lacks a pinned file", async () => {
    const pins = [pin("k/1/missing.xsl", "<a/>")];
    mkdirSync(mirror);
    await expect(syncRulesets({ mirror, target, pins })).rejects.toThrow("lacks pinned file k/1/missing.xsl");
  });
});

describe("sync from upstream", () => {
  const zip = zipSync({ "pkg/one.sch": enc.encode("<one/>"), "pkg/two.xsl": enc.encode("<two/>") });
  const served: Record<string, Uint8Array> = {
    "https://example.test/plain.xsd": enc.encode("<xsd/>"),
    "https://example.test/rules.zip": zip,
  };
  let requests: string[];
  const fakeFetch = (async (url: string) => {
    requests.push(url);
    const body = served[url];
    return body ? new Response(body as Uint8Array<ArrayBuffer>) : new Response("nope", { status: 404 });
  }) as unknown as typeof fetch;
  beforeEach(() => {
    requests = [];
  });

  test("downloads plain files and extracts zip members, fetching each zip once", async () => {
    const pins = [
      pin("k/1/plain.xsd", "<xsd/>", { upstreamUrl: "https://example.test/plain.xsd" }),
      pin("k/1/one.sch", "<one/>", { upstreamUrl: "https://example.test/rules.zip", zipMember: "pkg/one.sch" }),
      pin("k/1/two.xsl", "<two/>", { upstreamUrl: "https://example.test/rules.zip", zipMember: "pkg/two.xsl" }),
    ];
    expect(await syncRulesets({ mirror: null, target, pins, fetch: fakeFetch })).toEqual({ present: 0, copied: 0, downloaded: 3 });
    expect(readFileSync(join(target, "k/1/two.xsl"), "utf8")).toBe("<two/>");
    expect(requests).toEqual(["https://example.test/plain.xsd", "https://example.test/rules.zip"]);
  });

  test("refuses a downloaded member with the wrong hash", async () => {
    const pins = [pin("k/1/one.sch", "<other/>", { upstreamUrl: "https://example.test/rules.zip", zipMember: "pkg/one.sch" })];
    await expect(syncRulesets({ mirror: null, target, pins, fetch: fakeFetch })).rejects.toThrow(
      `refusing k/1/one.sch from https://example.test/rules.zip!/pkg/one.sch: SHA-256 expected ${sha256("<other/>")}, got ${sha256("<one/>")}`,
    );
  });

  test("reports HTTP failures and missing zip members", async () => {
    await expect(
      syncRulesets({ mirror: null, target, pins: [pin("k/1/x.xsd", "x", { upstreamUrl: "https://example.test/gone" })], fetch: fakeFetch }),
    ).rejects.toThrow("download https://example.test/gone failed: HTTP 404");
    const member = pin("k/1/y.xsl", "y", { upstreamUrl: "https://example.test/rules.zip", zipMember: "pkg/none.xsl" });
    await expect(syncRulesets({ mirror: null, target, pins: [member], fetch: fakeFetch })).rejects.toThrow("has no member pkg/none.xsl");
    expect(existsSync(target) ? readdirSync(target) : []).toEqual([]);
  });

  test("a connection lost mid-file names the file and the URL and leaves nothing in the cache", async () => {
    // A real server that promises 1,000 bytes, sends 10 and hangs up: what a dropped download looks like.
    const server = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data(socket) {
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n<xsd>12345");
          socket.end();
        },
      },
    });
    try {
      const url = `http://127.0.0.1:${server.port}/cut.xsd`;
      const pins = [pin("k/1/whole.xsd", "<xsd/>", { upstreamUrl: "https://example.test/plain.xsd" }), pin("k/1/cut.xsd", "<xsd>12345…", { upstreamUrl: url })];
      const both = (async (input: string) => (input === url ? fetch(input) : fakeFetch(input))) as unknown as typeof fetch;
      await expect(syncRulesets({ mirror: null, target, pins, fetch: both })).rejects.toThrow(`cannot sync k/1/cut.xsd: download ${url} failed: `);
      // The file before it stays; of the cut one there is neither the file nor a temporary part.
      expect(readdirSync(join(target, "k/1"))).toEqual(["whole.xsd"]);
    } finally {
      server.stop(true);
    }
  });
});

describe("mirror selection", () => {
  test("RULESETS_MIRROR wins and must exist", () => {
    expect(mirrorDir({ RULESETS_MIRROR: work })).toBe(work);
    expect(() => mirrorDir({ RULESETS_MIRROR: join(work, "nope") })).toThrow("does not exist");
  });
});
