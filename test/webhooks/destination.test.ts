import { afterAll, describe, expect, test } from "bun:test";
import { checkUrl, DestinationRefused, forbiddenAddress, post, resolveDestination, type Resolver } from "../../src/webhooks/destination";
import { STRICT_WEBHOOK_DESTINATIONS } from "../../src/config";
import { LOOPBACK_ALLOWED, receiver } from "./support";

const strict = STRICT_WEBHOOK_DESTINATIONS;

describe("webhook destinations (SSRF)", () => {
  test("every forbidden range is refused, in IPv4, IPv6 and IPv4 inside IPv6; public addresses pass", () => {
    const refused: [string, string][] = [
      ["127.0.0.1", "loopback"],
      ["127.255.0.9", "loopback"],
      ["10.1.2.3", "private"],
      ["172.16.0.1", "private"],
      ["172.31.255.255", "private"],
      ["192.168.1.1", "private"],
      ["169.254.169.254", "link-local (cloud metadata)"],
      ["100.64.0.1", "shared address space (CGNAT)"],
      ["0.0.0.0", "unspecified (this network)"],
      ["224.0.0.1", "multicast"],
      ["255.255.255.255", "reserved (and broadcast)"],
      ["::1", "loopback"],
      ["::", "unspecified"],
      ["fe80::1", "link-local"],
      ["fd00::1", "unique local (private)"],
      ["ff02::1", "multicast"],
      ["::ffff:127.0.0.1", "loopback, inside IPv6 ::ffff:127.0.0.1"],
      ["::ffff:a9fe:a9fe", "link-local (cloud metadata), inside IPv6 ::ffff:a9fe:a9fe"],
      ["::ffff:10.0.0.1", "private, inside IPv6 ::ffff:10.0.0.1"],
      ["64:ff9b::7f00:1", "loopback, inside IPv6 64:ff9b::7f00:1"],
      ["2002:c0a8:101::1", "private, inside IPv6 2002:c0a8:101::1"],
    ];
    for (const [address, reason] of refused) expect([address, forbiddenAddress(address)]).toEqual([address, reason]);
    for (const address of ["93.184.216.34", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:93.184.216.34"]) {
      expect([address, forbiddenAddress(address)]).toEqual([address, null]);
    }
  });

  test("URLs: https only, bounded, no credentials or fragment, no forbidden literal or localhost", () => {
    const refusals: [string, string][] = [
      ["http://hooks.example.com/in", "must use https"],
      ["ftp://hooks.example.com/in", "must use https"],
      ["https://a", "10 to 2048 characters"],
      [`https://hooks.example.com/${"a".repeat(2048)}`, "10 to 2048 characters"],
      ["not a url at all", "not an absolute URL"],
      ["https://user:pw@hooks.example.com/in", "must not hold credentials"],
      ["https://hooks.example.com/in#frag", "must not have a fragment"],
      ["https://127.0.0.1/in", "127.0.0.1 is loopback"],
      ["https://2130706433/in", "127.0.0.1 is loopback"],
      ["https://0x7f.1/in", "127.0.0.1 is loopback"],
      ["https://169.254.169.254/latest/meta-data", "link-local (cloud metadata)"],
      ["https://10.0.0.8/in", "private"],
      ["https://[::1]/in", "::1 is loopback"],
      ["https://[::ffff:127.0.0.1]/in", "loopback, inside IPv6"],
      ["https://[fe80::1]/in", "link-local"],
      ["https://localhost/in", "localhost is loopback"],
      ["https://api.localhost/in", "api.localhost is loopback"],
    ];
    for (const [url, message] of refusals) {
      expect(() => checkUrl(url, strict)).toThrow(DestinationRefused);
      expect(() => checkUrl(url, strict)).toThrow(message);
    }
    expect(checkUrl("https://hooks.example.com:8443/in?x=1", strict).host).toBe("hooks.example.com:8443");
  });

  test("the operator's exceptions: WEBHOOK_ALLOWED_HOSTS opens a host (http too), WEBHOOK_ALLOW_PRIVATE opens the addresses (https still)", () => {
    expect(checkUrl("http://127.0.0.1:9000/in", LOOPBACK_ALLOWED).port).toBe("9000");
    expect(() => checkUrl("http://10.0.0.1/in", LOOPBACK_ALLOWED)).toThrow("must use https");
    expect(() => checkUrl("https://10.0.0.1/in", LOOPBACK_ALLOWED)).toThrow("private");
    const open = { allowPrivate: true, allowedHosts: [] };
    expect(checkUrl("https://10.0.0.1/in", open).hostname).toBe("10.0.0.1");
    expect(() => checkUrl("http://10.0.0.1/in", open)).toThrow("must use https");
    expect(checkUrl("https://[::1]/in", { allowPrivate: false, allowedHosts: ["::1"] }).hostname).toBe("[::1]");
  });

  test("a host name is checked by what it resolves to when the request is sent: any forbidden address refuses it", async () => {
    const dns: Record<string, string[]> = { "public.example": ["93.184.216.34"], "sneaky.example": ["10.0.0.7"], "mixed.example": ["93.184.216.34", "::1"], "metadata.example": ["169.254.169.254"] };
    const resolve: Resolver = async (host) => (dns[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    expect((await resolveDestination("https://public.example/in", strict, 1_000, resolve)).addresses).toEqual([{ address: "93.184.216.34", family: 4 }]);
    await expect(resolveDestination("https://sneaky.example/in", strict, 1_000, resolve)).rejects.toThrow("sneaky.example resolves to 10.0.0.7, private");
    await expect(resolveDestination("https://mixed.example/in", strict, 1_000, resolve)).rejects.toThrow("mixed.example resolves to ::1, loopback");
    await expect(resolveDestination("https://metadata.example/in", strict, 1_000, resolve)).rejects.toThrow("169.254.169.254, link-local (cloud metadata)");
    await expect(resolveDestination("https://nowhere.example/in", strict, 1_000, resolve)).rejects.toThrow("nowhere.example does not resolve");
    await expect(resolveDestination("https://silent.example/in", strict, 100, () => new Promise(() => {}))).rejects.toThrow("silent.example does not resolve (no answer within 0.1 s)");
    // The operator's allow-list trusts the name whatever it resolves to.
    expect((await resolveDestination("https://sneaky.example/in", { allowPrivate: false, allowedHosts: ["sneaky.example"] }, 1_000, resolve)).addresses[0].address).toBe("10.0.0.7");
  });

  const hops = receiver([200], (request) => (new URL(request.url).pathname === "/moved" ? new Response(null, { status: 302, headers: { location: "/hooks" } }) : undefined));
  afterAll(() => hops.stop());

  test("the request goes to the checked address only, and a redirect is an answer, never followed", async () => {
    const port = new URL(hops.url).port;
    // A name no DNS knows reaches the receiver: the connection takes the address checked, not a second lookup.
    const url = new URL(`http://unresolvable.invalid:${port}/moved`);
    expect(await post(url, [{ address: "127.0.0.1", family: 4 }], {}, "{}", 2_000)).toEqual({ statusCode: 302 });
    expect(hops.received.map((r) => r.headers.get("host"))).toEqual([`unresolvable.invalid:${port}`]);
  });

  test("a destination that does not answer in time is an error, not a wait", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const started = performance.now();
      const answer = await post(new URL(`http://127.0.0.1:${silent.port}/in`), [{ address: "127.0.0.1", family: 4 }], {}, "{}", 300);
      expect(answer).toEqual({ error: "no answer within 0.3 s" });
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      silent.stop(true);
    }
  });
});
