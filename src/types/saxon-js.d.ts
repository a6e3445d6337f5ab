/** The parts of SaxonJS 2 the project calls (the package ships no type declarations). */
declare module "saxon-js" {
  interface TransformOptions {
    stylesheetInternal?: unknown;
    stylesheetBaseURI?: string;
    stylesheetFileName?: string;
    stylesheetText?: string;
    documentPool?: Record<string, unknown>;
    sourceText?: string;
    sourceFileName?: string;
    destination?: "serialized" | "document" | "raw" | "application" | "file" | "stdout";
    [option: string]: unknown;
  }
  interface TransformResult {
    principalResult: any;
    [key: string]: unknown;
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: "sync"): TransformResult;
    transform(options: TransformOptions, mode?: "async"): Promise<TransformResult>;
    XPath: { evaluate(xpath: string, context?: unknown, options?: { params?: Record<string, unknown>; [k: string]: unknown }): any };
    getProcessorInfo(): Record<string, string>;
  };
  export default SaxonJS;
}
