import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route";
import { ApiError, badRequest } from "../errors";
import { TemplateDefinition, type TemplateDefinitionInput } from "../../pdf/design";
import { createTemplate, deleteTemplate, findTemplate, listTemplates } from "../../templates/store";
import { unmetered } from "../metering";

const CreateTemplateRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    definition: TemplateDefinition,
  },
  { additionalProperties: false, title: "CreatePdfTemplate" },
);

const StoredTemplate = Type.Object(
  {
    ref: Type.String({ description: "short ref to pass as pdfTemplateId, e.g. K7Q-2MX" }),
    name: Type.String(),
    createdAt: Type.String({ format: "date-time" }),
    definition: TemplateDefinition,
  },
  { title: "PdfTemplate" },
);

const notFound = (ref: string) => new ApiError(404, "PDF_TEMPLATE_NOT_FOUND", `no PDF template '${ref}' in this organization`);

const tags = ["pdf-templates"];
const params = { ref: "the template's short ref, as created (e.g. K7Q-2MX; letters in either case)" };

export const createTemplateRoute = defineRoute<{ name: string; definition: TemplateDefinitionInput }>({
  method: "POST",
  path: "/v1/pdf-templates",
  auth: "key",
  body: { kind: "json", schema: CreateTemplateRequest, contentTypes: ["application/json"], maxBytes: 1024 * 1024 },
  doc: {
    summary: "Store a PDF template for the organization",
    description: "The definition customises the built-in layout (logo, accent colour, footer, language, blocks). Answers the stored template with its short ref, which generate takes as pdfTemplateId. Costs no quota.",
    tags,
    // The logo check runs in an engine worker, under its queue and deadline.
    errors: ["ENGINE_UNAVAILABLE"],
    response: { data: StoredTemplate },
  },
  async handle(ctx, { body }) {
    // The logo is caller bytes to decode: an engine worker checks it, under the queue and deadline.
    const problems = await unmetered(ctx, (signal) => ctx.deps.workers().designProblems(body.definition, signal));
    if (problems.length) throw badRequest(`the template cannot be drawn: ${problems.map((p) => p.message).join("; ")}`, problems.map((p) => ({ ...p, keyword: "logo" })));
    return createTemplate(ctx.deps.storage, ctx.deps.clock, ctx.caller.org.id, body.name, body.definition);
  },
});

export const listTemplatesRoute = defineRoute({
  method: "GET",
  path: "/v1/pdf-templates",
  auth: "key",
  doc: { summary: "List the organization's PDF templates", tags, errors: [], response: { data: Type.Array(StoredTemplate) } },
  handle: (ctx) => listTemplates(ctx.deps.storage, ctx.caller.org.id),
});

export const getTemplateRoute = defineRoute({
  method: "GET",
  path: "/v1/pdf-templates/:ref",
  auth: "key",
  doc: { summary: "One PDF template by its ref", tags, params, errors: ["PDF_TEMPLATE_NOT_FOUND"], response: { data: StoredTemplate } },
  async handle(ctx) {
    const found = await findTemplate(ctx.deps.storage, ctx.caller.org.id, ctx.params.ref);
    if (!found) throw notFound(ctx.params.ref);
    return found;
  },
});

export const deleteTemplateRoute = defineRoute({
  method: "DELETE",
  path: "/v1/pdf-templates/:ref",
  auth: "key",
  doc: { summary: "Delete a PDF template", tags, params, errors: ["PDF_TEMPLATE_NOT_FOUND"], response: { data: Type.Object({ ref: Type.String(), deleted: Type.Literal(true) }) } },
  async handle(ctx) {
    if (!(await deleteTemplate(ctx.deps.storage, ctx.caller.org.id, ctx.params.ref))) throw notFound(ctx.params.ref);
    return { ref: ctx.params.ref.toUpperCase(), deleted: true };
  },
});
