/** Font files imported as paths (`with { type: "file" }`), so `bun build --compile` embeds them. */
declare module "*.ttf" {
  const path: string;
  export default path;
}
