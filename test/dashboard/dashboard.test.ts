// The dashboard over HTTP without a browser: escaping, sign-in by link and password, throttling,
// CSRF, session expiry, a session's calls to /v1, and one organization never reaching another's.
// The browser scenarios are browser.test.ts.

import { afterAll, describe, expect, test } from "bun:test";
import { startHarness } from "../support/harness";
import { html, jsonBlock } from "../../src/dashboard/html";
import { addUser, createSignInLink } from "../../src/dashboard/sign-in";
import { createKey } from "../../src/accounts/keys";

const h = startHarness();
afterAll(() => h.close());

const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0];
const csrfIn = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = (cookie: string) => ({ cookie, "content-type": "application/x-www-form-urlencoded" });

/** A browser's way in: the link page (pre-session cookie and token), then its form. */
async function signInWithLink(token: string): Promise<{ res: Response; cookie: string }> {
  const page = await h.get(`/dashboard/link?token=${token}`);
  const pre = cookieOf(page);
  const res = await fetch(`${h.base}/dashboard/link`, { method: "POST", redirect: "manual", headers: formHeaders(pre), body: form({ csrf: csrfIn(await page.text()), token }) });
  return { res, cookie: cookieOf(res) };
}

async function session(orgName: string) {
  const org = await h.org(orgName);
  const { cookie } = await signInWithLink((await createSignInLink(h.storage, h.clock.read, org)).token);
  const page = await (await h.get("/dashboard/keys", undefined, { cookie })).text();
  return { org, cookie, csrf: /data-csrf="([^"]+)"/.exec(page)![1] };
}

describe("escaping", () => {
  test("every interpolation is text; only html-built values pass as markup", () => {
    const name = `<img src=x onerror="alert(1)">&'`;
    expect(html`<td title="${name}">${name}</td>`.text).toBe("<td title=\"&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;\">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;</td>");
    expect(html`<ul>${["<a>", html`<li>${"<b>"}</li>`]}</ul>`.text).toBe("<ul>&lt;a&gt;<li>&lt;b&gt;</li></ul>");
    expect(jsonBlock("d", { note: "</script><script>alert(1)</script>" }).text).not.toContain("</script><script>");
  });
});

describe("signing in", () => {
  test("a link opens one session once; its form needs the pre-session token", async () => {
    const org = await h.org("link-org");
    const { token } = await createSignInLink(h.storage, h.clock.read, org);
    const page = await h.get(`/dashboard/link?token=${token}`);
    const refused = await fetch(`${h.base}/dashboard/link`, { method: "POST", headers: formHeaders(cookieOf(page)), body: form({ token }) });
    expect(refused.status).toBe(403);
    const first = await signInWithLink(token);
    expect(first.res.status).toBe(303);
    expect(first.res.headers.get("location")).toBe("/dashboard");
    expect(first.res.headers.get("set-cookie")).toMatch(/^einvoice_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect((await signInWithLink(token)).res.status).toBe(403);
  });

  test("a link expires after 15 minutes; a session after 12 hours", async () => {
    const org = await h.org("expiring-org");
    const late = await createSignInLink(h.storage, h.clock.read, org);
    h.clock.advance(16 * 60_000);
    expect((await signInWithLink(late.token)).res.status).toBe(403);
    const { cookie } = await signInWithLink((await createSignInLink(h.storage, h.clock.read, org)).token);
    expect((await fetch(`${h.base}/dashboard`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
    h.clock.advance(12 * 3_600_000);
    const expired = await fetch(`${h.base}/dashboard`, { headers: { cookie }, redirect: "manual" });
    expect([expired.status, expired.headers.get("location")]).toEqual([303, "/dashboard/sign-in"]);
  });

  test("passwords: argon2id at rest; wrong ones refused, then throttled per email", async () => {
    const org = await h.org("password-org");
    await addUser(h.storage, h.clock.read, org, "Ops@Example.test", "a long enough password");
    expect((await h.storage.dashboard.userByEmail("ops@example.test"))?.passwordHash).toStartWith("$argon2id$");
    const page = await h.get("/dashboard/sign-in");
    const pre = cookieOf(page);
    const csrf = csrfIn(await page.text());
    const attempt = (password: string) =>
      fetch(`${h.base}/dashboard/sign-in`, { method: "POST", redirect: "manual", headers: formHeaders(pre), body: form({ csrf, email: "ops@example.test", password }) });
    expect((await attempt("a long enough password")).status).toBe(303);
    for (let i = 0; i < 4; i++) expect((await attempt("wrong password!")).status).toBe(401);
    const throttled = await attempt("a long enough password");
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("a signed-in organization", () => {
  test("pages carry the CSP, nosniff and a referrer policy; no session means the sign-in page", async () => {
    const { cookie } = await session("headers-org");
    for (const path of ["/dashboard", "/dashboard/keys", "/dashboard/playground", "/dashboard/templates", "/dashboard/rulesets"]) {
      const res = await h.get(path, undefined, { cookie });
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
    }
    const anonymous = await fetch(`${h.base}/dashboard/keys`, { redirect: "manual" });
    expect(anonymous.headers.get("location")).toBe("/dashboard/sign-in");
  });

  test("calls /v1 with its session and CSRF header, in the mode the header names (test unless live)", async () => {
    const { org, cookie, csrf } = await session("api-org");
    const me = async (headers: Record<string, string>) => h.get("/v1/me", undefined, { cookie, ...headers });
    expect((await me({})).status).toBe(401);
    const test = await (await me({ "x-csrf-token": csrf })).json();
    expect(test.data).toMatchObject({ keyId: null, keyPrefix: null, livemode: false, org: { id: org.id }, quota: { limit: 400 } });
    expect((await (await me({ "x-csrf-token": csrf, "x-dashboard-mode": "live" })).json()).data).toMatchObject({ livemode: true, quota: { limit: 20 } });
    expect((await me({ "x-csrf-token": "forged" })).status).toBe(401);
  });

  test("forms without the session's CSRF token change nothing", async () => {
    const { org, cookie, csrf } = await session("csrf-org");
    for (const body of [{ mode: "live" }, { mode: "live", csrf: "forged" }] as Record<string, string>[]) {
      expect((await h.post("/dashboard/keys", form(body), formHeaders(cookie))).status).toBe(403);
    }
    expect(await h.storage.keys.listFor(org.id)).toEqual([]);
    const created = await h.post("/dashboard/keys", form({ mode: "test", label: "ok", csrf }), formHeaders(cookie));
    expect(await created.text()).toMatch(/value="svc_test_[A-Za-z0-9]{40}"/);
    expect((await h.storage.keys.listFor(org.id)).map((k) => k.livemode)).toEqual([false]);
  });

  test("cannot revoke or see another organization's keys", async () => {
    const mine = await session("own-org");
    const other = await h.org("other-org");
    const otherKey = await createKey(h.storage, h.clock.read, other, "live", "theirs");
    const revoke = await h.post("/dashboard/keys/revoke", form({ keyId: otherKey.keyId, csrf: mine.csrf }), formHeaders(mine.cookie));
    expect(revoke.status).toBe(404);
    expect((await h.get("/v1/me", otherKey.key)).status).toBe(200);
    expect(await (await h.get("/dashboard/keys", undefined, { cookie: mine.cookie })).text()).not.toContain("theirs");
  });

  test("sign-out ends the session", async () => {
    const { cookie, csrf } = await session("leaving-org");
    const out = await fetch(`${h.base}/dashboard/sign-out`, { method: "POST", redirect: "manual", headers: formHeaders(cookie), body: form({ csrf }) });
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await fetch(`${h.base}/dashboard`, { headers: { cookie }, redirect: "manual" })).status).toBe(303);
  });
});
