import type { ParsedFile, SymbolKind } from "../../../core/types.js";
import { firstSentence, lineIndex } from "../text.js";
import { Outline } from "./outline.js";

interface Token {
  /** Upper-cased for words, as written (quotes stripped) in `text`. */
  word: string;
  text: string;
  /** `w` a word or quoted name, `p` punctuation, `s` a string literal. */
  type: "w" | "p" | "s";
  offset: number;
}

/** What a `CREATE` makes, by its object keyword. */
const CREATED: Readonly<Record<string, SymbolKind | null>> = {
  TABLE: "table", VIEW: "view", FUNCTION: "function", PROCEDURE: "function", TRIGGER: "function", TYPE: "type", DOMAIN: "type",
  INDEX: null, SEQUENCE: null, SCHEMA: null, EXTENSION: null, ROLE: null, USER: null, DATABASE: null, POLICY: null, RULE: null,
};
/** Words after which a table is named. */
const TABLE_BEFORE: ReadonlySet<string> = new Set(["FROM", "JOIN", "INTO", "UPDATE", "REFERENCES"]);
/** Words that follow a table name and so are no alias of it. */
const KEYWORDS: ReadonlySet<string> = new Set([
  "SELECT", "FROM", "WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL", "ON", "USING", "GROUP", "ORDER", "BY",
  "HAVING", "LIMIT", "OFFSET", "UNION", "ALL", "EXCEPT", "INTERSECT", "AS", "SET", "VALUES", "RETURNING", "WITH", "AND", "OR", "NOT",
  "IN", "IS", "NULL", "LIKE", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "END", "INSERT", "UPDATE", "DELETE", "INTO", "DEFAULT", "FOR",
  "WINDOW", "FETCH", "LATERAL", "ONLY", "BEGIN", "DECLARE", "IF", "LOOP", "WHILE", "RETURN", "RETURNS", "EXISTS", "DO", "NOTHING",
  "CONFLICT", "OUTPUT", "TOP", "DISTINCT", "CREATE", "TABLE", "VIEW", "INDEX", "ALTER", "DROP", "PRIMARY", "KEY", "FOREIGN", "REFERENCES",
  "CONSTRAINT", "CHECK", "UNIQUE", "CASCADE", "RESTRICT", "ADD", "COLUMN", "TRUNCATE", "EXECUTE", "EACH", "ROW", "AFTER", "BEFORE",
  "INSTEAD", "OF", "LANGUAGE", "TRIGGER", "FUNCTION", "PROCEDURE", "CALL", "EXEC", "REPLACE", "MATCHED", "MERGE", "TABLESAMPLE", "WHERE",
]);
/** Functions of SQL itself (and of its main dialects): a call of one is no reference. */
const BUILTINS: ReadonlySet<string> = new Set([
  "COUNT", "SUM", "MIN", "MAX", "AVG", "COALESCE", "NULLIF", "CAST", "CONVERT", "NOW", "LOWER", "UPPER", "LENGTH", "LEN", "SUBSTRING", "SUBSTR",
  "TRIM", "LTRIM", "RTRIM", "ROUND", "FLOOR", "CEIL", "CEILING", "ABS", "CONCAT", "EXTRACT", "DATE_TRUNC", "DATE", "TIME", "TIMESTAMP", "INTERVAL",
  "ARRAY_AGG", "STRING_AGG", "GROUP_CONCAT", "JSON_BUILD_OBJECT", "JSONB_BUILD_OBJECT", "JSON_AGG", "JSONB_AGG", "TO_CHAR", "TO_DATE",
  "ROW_NUMBER", "RANK", "DENSE_RANK", "LAG", "LEAD", "OVER", "PARTITION", "FIRST_VALUE", "LAST_VALUE", "GREATEST", "LEAST", "IFNULL",
  "ISNULL", "NVL", "REPLACE", "POSITION", "REGEXP_REPLACE", "SPLIT_PART", "GEN_RANDOM_UUID", "UUID_GENERATE_V4", "CURRENT_TIMESTAMP",
  "CURRENT_DATE", "RAISE", "FORMAT", "UNNEST", "GENERATE_SERIES", "ARRAY", "ANY", "SOME", "EXISTS", "IN", "VALUES", "VARCHAR", "CHAR",
  "NUMERIC", "DECIMAL", "INT", "INTEGER", "BIGINT", "SMALLINT", "FLOAT", "REAL", "DOUBLE", "BOOLEAN", "TEXT", "JSON", "JSONB", "UUID",
  "SERIAL", "BIGSERIAL", "BYTEA", "BLOB", "CLOB", "NVARCHAR", "NCHAR", "DATETIME", "DATETIME2", "BIT", "TINYINT", "MEDIUMINT", "ENUM",
  "PRIMARY", "KEY", "UNIQUE", "CHECK", "FOREIGN", "REFERENCES", "DEFAULT", "CONSTRAINT", "INDEX", "COLUMN", "TABLE", "USING", "ON", "AS",
  "IF", "WHEN", "AND", "OR", "NOT", "RETURNS", "RETURN", "SETOF", "COALESCE", "COUNT_BIG", "NEWID", "GETDATE", "SYSDATE", "DATEADD",
  "DATEDIFF", "MOD", "POWER", "SQRT", "EXP", "LN", "LOG", "RANDOM", "RAND", "MD5", "SHA1", "SHA256", "ENCODE", "DECODE", "LPAD", "RPAD",
  "LEFT", "RIGHT", "CHARINDEX", "INSTR", "LOCATE", "STUFF", "REVERSE", "TRY_CAST", "IIF", "CHOOSE", "OBJECT_ID", "SCOPE_IDENTITY",
]);
/** `END IF`, `END LOOP`: the end of a block that opened without `BEGIN` or `CASE`. */
const BLOCK_ENDS: ReadonlySet<string> = new Set(["IF", "LOOP", "WHILE", "REPEAT", "FOR"]);

/**
 * SQL by its `CREATE` statements: tables, views, functions, procedures, triggers and types are
 * definitions, each running to the end of its statement (a function's `$$` body or `BEGIN … END`
 * and MySQL's `DELIMITER` included); `schema.name` is qualified by its schema. The tables a query
 * names (`FROM`, `JOIN`, `INTO`, `UPDATE`, `REFERENCES`, `ALTER TABLE`, an index's `ON`) and the
 * functions it calls are references, calls for the graph, from the statement that holds them.
 */
export function sqlOutline(text: string): ParsedFile {
  const outline = new Outline();
  const lineOf = lineIndex(text);
  const { tokens, docs } = tokenize(text);
  let current = -1;
  /** The statement's `CREATE` object keyword (`TABLE`, `INDEX`), or "". */
  let object = "";
  let statementStart = true;
  let parens = 0;
  let blocks = 0;
  let dollar = false;
  let onLeft = false;
  const end = (token: Token): void => {
    const symbol = outline.at(current);
    if (symbol) symbol.endLine = lineOf(token.offset);
    current = -1;
    object = "";
    statementStart = true;
    parens = 0;
    blocks = 0;
    onLeft = false;
  };
  const reference = (at: number, columns: boolean): number => {
    // `schema.table`, `"Quoted"`: the name and its schema. A `(` after it opens its columns
    // (`INSERT INTO t (a, b)`, `REFERENCES t(id)`) or makes it a function (`FROM unnest(…)`).
    const name = tokens[at];
    if (!name || name.type !== "w" || (KEYWORDS.has(name.word) && !isQuoted(text, name))) return at;
    let receiver = "";
    let callee = name.text;
    let next = at + 1;
    while (tokens[next]?.text === "." && tokens[next + 1]?.type === "w") {
      receiver = receiver === "" ? callee : `${receiver}.${callee}`;
      callee = tokens[next + 1]!.text;
      next += 2;
    }
    if (tokens[next]?.text === "(" && !columns) return at;
    outline.call({ caller: current, callee, receiver, line: lineOf(name.offset) });
    return next;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === "p") {
      if (token.text === "$$") dollar = !dollar;
      else if (token.text === "(") parens++;
      else if (token.text === ")") parens = Math.max(0, parens - 1);
      else if (token.text === ";" && !dollar && parens === 0 && blocks === 0) end(token);
      continue;
    }
    if (token.type !== "w") continue;
    const word = token.word;
    if (word === "GO" && blocks === 0 && !dollar && parens === 0) {
      // T-SQL's batch separator.
      end(token);
      continue;
    }
    if (word === "CREATE" && (statementStart || (parens === 0 && blocks === 0 && !dollar))) {
      if (current >= 0) end(tokens[i - 1] ?? token);
      // Past `OR REPLACE`, `MATERIALIZED`, `DEFINER=\`root\`@\`%\`` to what it creates.
      let j = i + 1;
      while (j < tokens.length && j < i + 12 && !(tokens[j]!.type === "w" && Object.hasOwn(CREATED, tokens[j]!.word))) j++;
      object = Object.hasOwn(CREATED, tokens[j]?.word ?? "") ? tokens[j]!.word : "?";
      const kind = CREATED[object] ?? null;
      j++;
      while (tokens[j] && ["IF", "NOT", "EXISTS", "CONCURRENTLY"].includes(tokens[j]!.word)) j++;
      const nameToken = tokens[j];
      statementStart = false;
      if (kind && nameToken?.type === "w") {
        let qualified = nameToken.text;
        let k = j + 1;
        while (tokens[k]?.text === "." && tokens[k + 1]?.type === "w") {
          qualified += `.${tokens[k + 1]!.text}`;
          k += 2;
        }
        const name = qualified.slice(qualified.lastIndexOf(".") + 1);
        const header = signatureOf(text, token.offset, tokens[k]?.offset ?? text.length, kind);
        current = outline.add({ name, qualifiedName: qualified, kind, signature: header, doc: firstSentence(docs.get(i) ?? ""), startLine: lineOf(token.offset), endLine: lineOf(token.offset), parent: -1 });
        i = k - 1;
      } else i = j - 1;
      continue;
    }
    statementStart = false;
    if (CREATED[object] === "function" && !dollar) {
      if (word === "BEGIN" || word === "CASE") blocks++;
      else if (word === "END" && !BLOCK_ENDS.has(tokens[i + 1]?.word ?? "")) blocks = Math.max(0, blocks - 1);
    }
    if (TABLE_BEFORE.has(word)) {
      let j = i + 1;
      while (tokens[j]?.word === "ONLY" || tokens[j]?.word === "LATERAL") j++;
      for (;;) {
        const after = reference(j, word !== "FROM" && word !== "JOIN");
        if (after === j) break;
        i = after - 1;
        // `FROM a x, b AS y`: past an alias to the next table of the list.
        let k = after;
        if (tokens[k]?.word === "AS") k++;
        if (tokens[k]?.type === "w" && !KEYWORDS.has(tokens[k]!.word)) k++;
        if (word !== "FROM" || tokens[k]?.text !== ",") break;
        j = k + 1;
      }
    } else if (word === "TABLE" && (tokens[i - 1]?.word === "ALTER" || tokens[i - 1]?.word === "TRUNCATE")) {
      let j = i + 1;
      while (tokens[j] && ["IF", "EXISTS", "ONLY"].includes(tokens[j]!.word)) j++;
      i = reference(j, true) - 1;
    } else if (word === "ON" && (object === "INDEX" || object === "TRIGGER" || object === "POLICY") && !onLeft) {
      // `CREATE INDEX … ON orders (…)`, `CREATE TRIGGER … ON orders`: the table it is made on.
      onLeft = true;
      i = reference(tokens[i + 1]?.word === "ONLY" ? i + 2 : i + 1, true) - 1;
    } else if (tokens[i + 1]?.text === "(" && !BUILTINS.has(word) && !KEYWORDS.has(word)) {
      // A function called; its own name in its `CREATE` was passed above, a type's `(n)` is a builtin.
      const qualified = tokens[i - 1]?.text === "." ? tokens[i - 2]?.text ?? "" : "";
      outline.call({ caller: current, callee: token.text, receiver: qualified, line: lineOf(token.offset) });
    }
  }
  const last = tokens[tokens.length - 1];
  if (current >= 0 && last) end(last);
  return outline.done();
}

/** A `CREATE` statement's head: to its name and parameters (a function's), clipped later. */
function signatureOf(text: string, start: number, afterName: number, kind: SymbolKind): string {
  let stop = afterName;
  if (kind === "function" && text[stop] === "(") {
    let depth = 0;
    for (; stop < text.length; stop++) {
      if (text[stop] === "(") depth++;
      else if (text[stop] === ")" && --depth === 0) {
        stop++;
        break;
      }
    }
    const returns = /^\s*RETURNS\s+(?:SETOF\s+|TABLE\s*\([^)]*\)|)[\w.]*(?:\([^)]*\))?/i.exec(text.slice(stop, stop + 200));
    if (returns) stop += returns[0].length;
  }
  return text.slice(start, stop).replace(/\s+/g, " ");
}

function isQuoted(text: string, token: Token): boolean {
  const c = text[token.offset];
  return c === '"' || c === "`" || c === "[";
}

/** A dollar quote (`$$`, `$body$`) and a word, read where the tokenizer stands. */
const DOLLAR = /\$(?:[A-Za-z_]\w*)?\$/y;
const WORD = /[A-Za-z_@#][\w$@#]*/y;

/**
 * Words, quoted names, punctuation and string literals, comments left out (the comment before a
 * token, by token index, is kept as a doc). `$$` and `$tag$` are punctuation (`$$`): a function
 * body between them is code to read. MySQL's `DELIMITER //` makes `//` a `;`.
 */
function tokenize(text: string): { tokens: Token[]; docs: Map<number, string> } {
  const tokens: Token[] = [];
  const docs = new Map<number, string>();
  let comment = "";
  let delimiter = ";";
  const push = (token: Token): void => {
    if (comment !== "") docs.set(tokens.length, comment);
    comment = "";
    tokens.push(token);
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      comment += `${text.slice(i, stop)}\n`;
      i = stop;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      comment = text.slice(i, stop);
      i = stop;
      continue;
    }
    if (delimiter !== ";" && text.startsWith(delimiter, i)) {
      push({ word: ";", text: ";", type: "p", offset: i });
      i += delimiter.length;
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      while (j < text.length && !(text[j] === "'" && text[j + 1] !== "'")) j += text[j] === "'" || text[j] === "\\" ? 2 : 1;
      push({ word: "", text: "", type: "s", offset: i });
      i = j + 1;
      continue;
    }
    if (c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      const end = text.indexOf(close, i + 1);
      const stop = end < 0 ? text.length : end;
      const name = text.slice(i + 1, stop);
      // `[` opens a quoted name in T-SQL only when a name follows (not an array subscript).
      if (c !== "[" || /^[\w\s.$#@-]+$/.test(name)) {
        push({ word: name.toUpperCase(), text: name, type: "w", offset: i });
        i = stop + 1;
        continue;
      }
    }
    DOLLAR.lastIndex = i;
    const dollar = c === "$" ? DOLLAR.exec(text) : null;
    if (dollar) {
      push({ word: "$$", text: "$$", type: "p", offset: i });
      i += dollar[0].length;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word) {
      const upper = word[0].toUpperCase();
      if (upper === "DELIMITER" && (tokens.length === 0 || tokens[tokens.length - 1]!.text === ";")) {
        const end = text.indexOf("\n", i);
        const stop = end < 0 ? text.length : end;
        delimiter = text.slice(i + word[0].length, stop).trim() || ";";
        i = stop;
        continue;
      }
      push({ word: upper, text: word[0], type: "w", offset: i });
      i += word[0].length;
      continue;
    }
    push({ word: c, text: c, type: "p", offset: i });
    i++;
  }
  return { tokens, docs };
}
