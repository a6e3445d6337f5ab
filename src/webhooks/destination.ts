// Where a webhook may go: a subscriber's URL makes our server send requests, so it must not reach
// what only the server can reach (server-side request forgery: OWASP API7, and the warning in
// Standard Webhooks). The rules (docs/webhooks.md, "Destinations"): https only; no credentials in
// the URL; no loopback, private, link-local (169.254.169.254 is the cloud metadata service),
// shared (CGNAT), multicast, unspecified or reserved address, in IPv4, IPv6 or an IPv4 address
// inside IPv6; the operator's WEBHOOK_ALLOWED_HOSTS and WEBHOOK_ALLOW_PRIVATE are the only
// exceptions. The address is checked when the request is sent, and the connection goes to exactly
// the address checked (no second resolution a rebinding DNS server could answer differently);
// redirects are never followed.

import { lookup } from "node:dns/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";
import type { WebhookDestinationPolicy } from "../config";

export const MIN_URL_LENGTH = 10;
export const MAX_URL_LENGTH = 2048;

/** A destination the rules refuse; the message says which rule. */
export class DestinationRefused extends Error {}

/** The ranges no webhook reaches without the operator's exception, each with the name a refusal gives. */
const RANGES: readonly [string, number, "ipv4" | "ipv6", string][] = [
  ["0.0.0.0", 8, "ipv4", "unspecified (this network)"],
  ["10.0.0.0", 8, "ipv4", "private"],
  ["100.64.0.0", 10, "ipv4", "shared address space (CGNAT)"],
  ["127.0.0.0", 8, "ipv4", "loopback"],
  ["169.254.0.0", 16, "ipv4", "link-local (cloud metadata)"],
  ["172.16.0.0", 12, "ipv4", "private"],
  ["192.0.0.0", 24, "ipv4", "IETF protocol assignments"],
  ["192.0.2.0", 24, "ipv4", "documentation"],
  ["192.168.0.0", 16, "ipv4", "private"],
  ["198.18.0.0", 15, "ipv4", "benchmarking"],
  ["198.51.100.0", 24, "ipv4", "documentation"],
  ["203.0.113.0", 24, "ipv4", "documentation"],
  ["224.0.0.0", 4, "ipv4", "multicast"],
  ["240.0.0.0", 4, "ipv4", "reserved (and broadcast)"],
  ["::", 128, "ipv6", "unspecified"],
  ["::1", 128, "ipv6", "loopback"],
  ["100::", 64, "ipv6", "discard-only"],
  ["2001:db8::", 32, "ipv6", "documentation"],
  ["fc00::", 7, "ipv6", "unique local (private)"],
  ["fe80::", 10, "ipv6", "link-local"],
  ["fec0::", 10, "ipv6", "site-local (deprecated, private)"],
  ["ff00::", 8, "ipv6", "multicast"],
];

const LISTS = RANGES.map(([network, prefix, family, name]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, family, name };
});

/** The 16 bytes of an IPv6 address (dotted IPv4 tail allowed). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]);
}

/**
 * The IPv4 address an IPv6 one carries where a connection would reach it: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002:ab:cd::/16).
 */
function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  const quad = (from: number) => b.slice(from, from + 4).join(".");
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return quad(12);
  if (zeros(0, 12) && !zeros(12, 14)) return quad(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return quad(12);
  if (b[0] === 0x20 && b[1] === 0x02) return quad(2);
  return null;
}

/** Why no webhook may reach this IP address without the operator's exception, or null when it may. */
export function forbiddenAddress(address: string): string | null {
  const version = isIP(address);
  if (version === 0) return "not an IP address";
  const family = version === 4 ? "ipv4" : "ipv6";
  const hit = LISTS.find((l) => l.family === family && l.list.check(address, family));
  if (hit) return hit.name;
  const inner = family === "ipv6" ? embeddedIpv4(address) : null;
  const innerReason = inner === null ? null : forbiddenAddress(inner);
  return innerReason === null ? null : `${innerReason}, inside IPv6 ${address}`;
}

const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, "$1");

const exempt = (host: string, policy: WebhookDestinationPolicy) => policy.allowPrivate || policy.allowedHosts.includes(host);

/**
 * The rules a URL can be held to without the network, at subscription time: the scheme, the
 * length, no credentials or fragment, and no forbidden IP literal or `localhost` name.
 */
export function checkUrl(raw: string, policy: WebhookDestinationPolicy): URL {
  if (raw.length < MIN_URL_LENGTH || raw.length > MAX_URL_LENGTH) throw new DestinationRefused(`the URL must have ${MIN_URL_LENGTH} to ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationRefused("the URL is not an absolute URL");
  }
  const host = bare(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowedHosts.includes(host))) {
    throw new DestinationRefused(`the URL must use https (plain http only for hosts the operator lists in WEBHOOK_ALLOWED_HOSTS), not ${url.protocol}`);
  }
  if (url.username || url.password) throw new DestinationRefused("the URL must not hold credentials: authenticate the request by its signature");
  if (url.hash) throw new DestinationRefused("the URL must not have a fragment (it is never sent)");
  if (!exempt(host, policy)) {
    if (host === "localhost" || host.endsWith(".localhost")) throw new DestinationRefused(`${host} is loopback; the operator allows it with WEBHOOK_ALLOWED_HOSTS`);
    const reason = isIP(host) ? forbiddenAddress(host) : null;
    if (reason) throw new DestinationRefused(`${host} is ${reason}; the operator allows it with WEBHOOK_ALLOWED_HOSTS or WEBHOOK_ALLOW_PRIVATE`);
  }
  return url;
}

export interface Address {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<Address[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));

/** A resolver that does not answer is a failed attempt, not a lease held until the system resolver gives up. */
function answeredWithin<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The addresses a request to `url` may connect to, checked now: every address the name resolves
 * to must be allowed, since the connection could take any of them.
 */
export async function resolveDestination(
  raw: string,
  policy: WebhookDestinationPolicy,
  timeoutMs: number,
  resolve: Resolver = systemResolver,
): Promise<{ url: URL; addresses: Address[] }> {
  const url = checkUrl(raw, policy);
  const host = bare(url.hostname);
  const version = isIP(host);
  let addresses: Address[];
  if (version) addresses = [{ address: host, family: version as 4 | 6 }];
  else {
    try {
      addresses = await answeredWithin(resolve(host), timeoutMs);
    } catch (error) {
      throw new DestinationRefused(`${host} does not resolve (${(error as Error).message})`);
    }
  }
  if (!addresses.length) throw new DestinationRefused(`${host} does not resolve`);
  if (!exempt(host, policy)) {
    for (const { address } of addresses) {
      const reason = forbiddenAddress(address);
      if (reason) throw new DestinationRefused(`${host} resolves to ${address}, ${reason}; the operator allows it with WEBHOOK_ALLOWED_HOSTS or WEBHOOK_ALLOW_PRIVATE`);
    }
  }
  return { url, addresses };
}

/** The status the destination answered, or why there was none. */
export type Answer = { statusCode: number } | { error: string };

/**
 * POSTs `body` to `url`, connecting only to `addresses`, within `timeoutMs` for the whole
 * exchange up to the response's status line. The response body is not read (only the status
 * counts), and a redirect is an answer like any other, never followed.
 */
export function post(url: URL, addresses: Address[], headers: Record<string, string>, body: string, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const pinned = (_host: string, options: { all?: boolean }, done: (...args: unknown[]) => void) =>
      options?.all ? done(null, addresses) : done(null, addresses[0].address, addresses[0].family);
    const req = send(url, {
      method: "POST",
      agent: false,
      lookup: pinned as never,
      headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "user-agent": "einvoice-webhooks/1" },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on("response", (res) => {
      clearTimeout(timer);
      resolve({ statusCode: res.statusCode ?? 0 });
      res.destroy();
    });
    req.on("error", (error) => {
      clearTimeout(timer);
      resolve({ error: error.message });
    });
    req.end(body);
  });
}
