/** Text and file imports that Bun resolves (`with { type: "text" | "file" }`). */
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.bundle" {
  const path: string;
  export default path;
}

// The dashboard's stylesheet, imported as text (src/dashboard/routes.ts).
declare module "*.css" {
  const text: string;
  export default text;
}
