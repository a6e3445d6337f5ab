// The OpenAPI document loads in the standard tools: an OpenAPI 3.1 validator
// (@seriousme/openapi-schema-validator, the official 3.1 JSON schemas) accepts it and
// openapi-typescript, the generator the SDKs use, turns it into types. openapi-typescript 7 needs
// TypeScript 5's compiler API, which the repository's TypeScript 7 does not have, so the suite runs
// 6.7, which reads 3.1 and resolves references the same way.
import { afterAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import openapiTS from "openapi-typescript";
import { startHarness } from "../support/harness";

const h = startHarness();
afterAll(() => h.close());

const served = async () => (await h.get("/openapi.json")).json();

describe("the OpenAPI document in the standard tools", () => {
  test("an OpenAPI 3.1 validator finds it valid, every reference resolved", async () => {
    const result = await new Validator().validate(await served());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  test("openapi-typescript generates the paths and the named schemas", async () => {
    const types = await openapiTS(await served());
    for (const path of ["/v1/validate", "/v1/generate", "/v1/parse", "/v1/me", "/v1/rulesets", "/v1/pdf-templates/{ref}"]) expect(types).toContain(`"${path}": {`);
    for (const name of ["ValidationResult", "GenerateResult", "ParseResult", "Invoice", "InvoiceLine"]) expect(types).toContain(`${name}: {`);
    // The recursive sub-line refers to its own component rather than to a bare name.
    expect(types).toContain(`subLines?: components["schemas"]["InvoiceLine"][];`);
  });

  test("every named schema is a component, held once and referred to by its place there", async () => {
    const text = JSON.stringify(await served());
    expect(text).not.toContain('"$id"');
    const refs = [...text.matchAll(/"\$ref":"([^"]*)"/g)].map(([, ref]) => ref!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref).toStartWith("#/components/schemas/");
    expect(text.match(/"title":"InvoiceLine"/g)).toHaveLength(1);
  });

  test("validate declares the Service-Ruleset header, ?layers and its answer's headers; each route its path parameters and errors", async () => {
    const doc = await served();
    const validate = doc.paths["/v1/validate"].post;
    const param = (name: string) => validate.parameters.find((p: { name: string }) => p.name === name);
    expect(param("Service-Ruleset")).toMatchObject({ in: "header", required: false });
    expect(param("layers")).toMatchObject({ in: "query", required: false, schema: { anyOf: [{ const: "true" }, { const: "false" }] } });
    expect(Object.keys(validate.responses["200"].headers)).toEqual(expect.arrayContaining(["Service-Ruleset-Resolved", "x-ruleset-sha256", "x-ruleset-artifacts", "x-ratelimit-limit", "x-request-id"]));
    expect(validate.responses["422"].content["application/json"].schema.properties.error.properties.code.enum).toContain("VALIDATION_ERROR");
    expect(validate.responses["503"].headers["x-service-quota-refunded"]).toBeDefined();
    for (const method of ["get", "delete"]) {
      const op = doc.paths["/v1/pdf-templates/{ref}"][method];
      expect(op.parameters).toEqual([expect.objectContaining({ name: "ref", in: "path", required: true })]);
      expect(op.responses["404"].content["application/json"].schema.properties.error.properties.code.enum).toEqual(["PDF_TEMPLATE_NOT_FOUND"]);
    }
    const generate = doc.paths["/v1/generate"].post;
    expect(Object.keys(generate.responses["200"].content)).toEqual(["application/xml", "application/pdf", "application/json"]);
    const codes = Object.values(generate.responses).flatMap((r: any) => r.content["application/json"].schema.properties.error?.properties.code.enum ?? []);
    expect(codes).toEqual(expect.arrayContaining(["INVALID_INVOICE", "PROFILE_STANDARD_MISMATCH", "DOCUMENT_TYPE_STANDARD_MISMATCH", "PDF_TEMPLATE_AUTH_REQUIRED", "PDF_TEMPLATE_NOT_FOUND", "PDF_TEMPLATE_INVALID", "QUOTA_EXCEEDED", "ENGINE_UNAVAILABLE"]));
  });

  test("INVALID_INVOICE's details name the Validation result, and a schema failure's details its fields, in the document and the generated types", async () => {
    const doc = await served();
    const details = doc.paths["/v1/generate"].post.responses["422"].content["application/json"].schema.properties.error.properties.details;
    expect(details.anyOf).toEqual(expect.arrayContaining([{ $ref: "#/components/schemas/InvalidInvoiceDetails" }, { $ref: "#/components/schemas/SchemaFailureDetails" }]));
    expect(doc.components.schemas.InvalidInvoiceDetails.properties.validationResult).toEqual({ $ref: "#/components/schemas/ValidationResult" });
    const types = await openapiTS(doc);
    expect(types).toContain(`validationResult: components["schemas"]["ValidationResult"];`);
  });
});
