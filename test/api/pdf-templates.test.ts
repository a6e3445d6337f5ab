import { afterAll, describe, expect, test } from "bun:test";
import { envelope, startHarness } from "../support/harness";

const h = startHarness();
afterAll(() => h.close());
const acme = await h.key(await h.org("acme", "starter"), "live");
const other = await h.key(await h.org("other", "starter"), "live");
const json = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
const del = (path: string, key: string) => fetch(h.base + path, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });

describe("stored PDF templates", () => {
  test("create, list, read and delete within the organization", async () => {
    const definition = { accentColor: "#1F4E79", footerText: "Acme GmbH · HRB 12345", language: "de", show: { itemIds: false } };
    const created = await h.post("/v1/pdf-templates", JSON.stringify({ name: "Brand", definition }), json(acme));
    expect(created.status).toBe(200);
    const { data } = await envelope(created);
    expect(data.ref).toMatch(/^[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}$/);
    expect(data).toMatchObject({ name: "Brand", definition });
    expect((await envelope(await h.get("/v1/pdf-templates", acme))).data.map((t: { ref: string }) => t.ref)).toEqual([data.ref]);
    expect((await envelope(await h.get(`/v1/pdf-templates/${data.ref.toLowerCase()}`, acme))).data.ref).toBe(data.ref);
    expect((await envelope(await del(`/v1/pdf-templates/${data.ref}`, acme))).data).toEqual({ ref: data.ref, deleted: true });
    const gone = await h.get(`/v1/pdf-templates/${data.ref}`, acme);
    expect(gone.status).toBe(404);
    expect((await envelope(gone)).error.code).toBe("PDF_TEMPLATE_NOT_FOUND");
  });

  test("another organization's ref is not found, and cannot be deleted", async () => {
    const { data } = await envelope(await h.post("/v1/pdf-templates", JSON.stringify({ name: "Mine", definition: {} }), json(acme)));
    expect((await h.get(`/v1/pdf-templates/${data.ref}`, other)).status).toBe(404);
    expect((await del(`/v1/pdf-templates/${data.ref}`, other)).status).toBe(404);
    expect((await envelope(await h.get("/v1/pdf-templates", other))).data).toEqual([]);
    expect((await h.get(`/v1/pdf-templates/${data.ref}`, acme)).status).toBe(200);
  });

  test("a definition outside the documented shape is a 400 with details.fields", async () => {
    const res = await h.post("/v1/pdf-templates", JSON.stringify({ name: "Bad", definition: { accentColor: "blue", fontSize: 9 } }), json(acme));
    expect(res.status).toBe(400);
    const { error } = await envelope(res);
    expect(error.details.fields).toContainEqual(expect.objectContaining({ path: "/definition/accentColor", keyword: "pattern" }));
    expect(error.details.fields).toContainEqual(expect.objectContaining({ path: "/definition", keyword: "additionalProperties" }));
  });

  test("templates need a key like every /v1 route", async () => {
    expect((await h.get("/v1/pdf-templates")).status).toBe(401);
  });
});

describe("template logos", () => {
  test("a logo that would bring transparency into the PDF/A file is refused when stored", async () => {
    const { png } = await import("../pdf/images");
    const alpha = Buffer.from(png({ width: 4, height: 4, colourType: 6, pixel: () => [10, 20, 30, 128] })).toString("base64");
    const res = await h.post("/v1/pdf-templates", JSON.stringify({ name: "Alpha", definition: { logo: { mediaType: "image/png", data: alpha } } }), json(acme));
    expect(res.status).toBe(400);
    const { error } = await envelope(res);
    expect(error.details.fields).toEqual([expect.objectContaining({ path: "/definition/logo", keyword: "logo" })]);
    expect(error.message).toContain("alpha");
    const opaque = Buffer.from(png({ width: 4, height: 4, colourType: 2, pixel: () => [10, 20, 30] })).toString("base64");
    expect((await h.post("/v1/pdf-templates", JSON.stringify({ name: "Opaque", definition: { logo: { mediaType: "image/png", data: opaque } } }), json(acme))).status).toBe(200);
  });
});
