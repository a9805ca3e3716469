import type { OutlineLanguage, ParsedFile } from "../../../core/types.js";
import { jsonOutline, tomlOutline, yamlOutline } from "./config.js";
import { cssOutline } from "./css.js";
import { htmlOutline, type ScriptParser } from "./html.js";
import { markdownOutline } from "./markdown.js";
import { sqlOutline } from "./sql.js";

export type { ScriptParser } from "./html.js";

/**
 * The outline of a document, style sheet, schema or config file. Scanners, not grammars: what they
 * read (headings, selectors, `CREATE` statements, keys) is found line by line or token by token,
 * and no input makes one fail (see native-notes/tree-sitter.md for why no grammar).
 */
export function outlineFile(language: OutlineLanguage, text: string, parseScript: ScriptParser): ParsedFile {
  switch (language) {
    case "markdown":
      return markdownOutline(text);
    case "html":
      return htmlOutline(text, parseScript);
    case "css":
      return cssOutline(text);
    case "sql":
      return sqlOutline(text);
    case "json":
      return jsonOutline(text);
    case "yaml":
      return yamlOutline(text);
    case "toml":
      return tomlOutline(text);
  }
}
