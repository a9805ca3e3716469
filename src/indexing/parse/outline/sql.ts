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
  /** A word alone on its line (T-SQL's `GO` ends a batch only so). */
  alone?: true;
}

/** What a `CREATE` makes, by its object keyword. */
const CREATED: Readonly<Record<string, SymbolKind | null>> = {
  TABLE: "table", VIEW: "view", FUNCTION: "function", PROCEDURE: "function", TRIGGER: "function", TYPE: "type", DOMAIN: "type",
  INDEX: null, SEQUENCE: null, SCHEMA: null, EXTENSION: null, ROLE: null, USER: null, DATABASE: null, POLICY: null, RULE: null,
};
/** Words between `CREATE` and its object keyword (`DEFINER = user@host` and `ALGORITHM = x` are read apart). */
const MODIFIERS: ReadonlySet<string> = new Set([
  "OR", "REPLACE", "ALTER", "TEMP", "TEMPORARY", "UNLOGGED", "GLOBAL", "LOCAL", "MATERIALIZED", "UNIQUE", "RECURSIVE",
  "CLUSTERED", "NONCLUSTERED", "VIRTUAL", "EXTERNAL", "FOREIGN", "SQL", "SECURITY", "INVOKER", "DEFINER", "ALGORITHM",
  "EDITIONABLE", "NONEDITIONABLE", "FORCE", "NOFORCE", "AGGREGATE", "CONSTRAINT", "SECURE", "TRANSIENT", "VOLATILE",
]);
/** Words after which a table is named. */
const TABLE_BEFORE: ReadonlySet<string> = new Set(["FROM", "JOIN", "INTO", "UPDATE", "REFERENCES", "COPY"]);
/** Words that follow a table name and so are no alias of it. */
const KEYWORDS: ReadonlySet<string> = new Set([
  "SELECT", "FROM", "WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL", "ON", "USING", "GROUP", "ORDER", "BY",
  "HAVING", "LIMIT", "OFFSET", "UNION", "ALL", "EXCEPT", "INTERSECT", "AS", "SET", "VALUES", "RETURNING", "WITH", "AND", "OR", "NOT",
  "IN", "IS", "NULL", "LIKE", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "END", "INSERT", "UPDATE", "DELETE", "INTO", "DEFAULT", "FOR",
  "WINDOW", "FETCH", "LATERAL", "ONLY", "BEGIN", "DECLARE", "IF", "LOOP", "WHILE", "RETURN", "RETURNS", "EXISTS", "DO", "NOTHING",
  "CONFLICT", "OUTPUT", "TOP", "DISTINCT", "CREATE", "TABLE", "VIEW", "INDEX", "ALTER", "DROP", "PRIMARY", "KEY", "FOREIGN", "REFERENCES",
  "CONSTRAINT", "CHECK", "UNIQUE", "CASCADE", "RESTRICT", "ADD", "COLUMN", "TRUNCATE", "EXECUTE", "EACH", "ROW", "AFTER", "BEFORE",
  "INSTEAD", "OF", "LANGUAGE", "TRIGGER", "FUNCTION", "PROCEDURE", "CALL", "EXEC", "REPLACE", "MATCHED", "MERGE", "TABLESAMPLE",
  "ANY", "SOME", "RETURN", "SETOF", "STDIN", "STDOUT",
]);
/** Functions of SQL itself (and of its main dialects): a call of one is no reference. */
const BUILTINS: ReadonlySet<string> = new Set([
  "COUNT", "SUM", "MIN", "MAX", "AVG", "COALESCE", "NULLIF", "CAST", "CONVERT", "NOW", "LOWER", "UPPER", "LENGTH", "LEN", "SUBSTRING", "SUBSTR",
  "TRIM", "LTRIM", "RTRIM", "ROUND", "FLOOR", "CEIL", "CEILING", "ABS", "CONCAT", "EXTRACT", "DATE_TRUNC", "DATE", "TIME", "TIMESTAMP", "INTERVAL",
  "ARRAY_AGG", "STRING_AGG", "GROUP_CONCAT", "JSON_BUILD_OBJECT", "JSONB_BUILD_OBJECT", "JSON_AGG", "JSONB_AGG", "TO_CHAR", "TO_DATE",
  "ROW_NUMBER", "RANK", "DENSE_RANK", "LAG", "LEAD", "OVER", "PARTITION", "FIRST_VALUE", "LAST_VALUE", "GREATEST", "LEAST", "IFNULL",
  "ISNULL", "NVL", "POSITION", "REGEXP_REPLACE", "SPLIT_PART", "GEN_RANDOM_UUID", "UUID_GENERATE_V4", "CURRENT_TIMESTAMP",
  "CURRENT_DATE", "RAISE", "FORMAT", "UNNEST", "GENERATE_SERIES", "ARRAY", "VARCHAR", "CHAR", "VARYING",
  "NUMERIC", "DECIMAL", "INT", "INTEGER", "BIGINT", "SMALLINT", "FLOAT", "REAL", "DOUBLE", "BOOLEAN", "TEXT", "JSON", "JSONB", "UUID",
  "SERIAL", "BIGSERIAL", "BYTEA", "BLOB", "CLOB", "NVARCHAR", "NCHAR", "DATETIME", "DATETIME2", "BIT", "TINYINT", "MEDIUMINT", "ENUM",
  "VECTOR", "GEOMETRY", "GEOGRAPHY", "COUNT_BIG", "NEWID", "GETDATE", "SYSDATE", "DATEADD",
  "DATEDIFF", "MOD", "POWER", "SQRT", "EXP", "LN", "LOG", "RANDOM", "RAND", "MD5", "SHA1", "SHA256", "ENCODE", "DECODE", "LPAD", "RPAD",
  "LEFT", "RIGHT", "CHARINDEX", "INSTR", "LOCATE", "STUFF", "REVERSE", "TRY_CAST", "IIF", "CHOOSE", "OBJECT_ID", "SCOPE_IDENTITY",
]);
/** What a function call's name never follows: `UNIQUE KEY uk (…)`, `USING btree (…)`, `CONSTRAINT ck (…)`. */
const NOT_CALLED_AFTER: ReadonlySet<string> = new Set(["KEY", "INDEX", "CONSTRAINT", "USING"]);
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
  /** The statement's first word (`SELECT`, `DELETE`, `MERGE`). */
  let verb = "";
  /** Open parentheses, each with whether a `SELECT` opened in it (a `FROM` in `EXTRACT(YEAR FROM x)` names no table). */
  const parens: boolean[] = [];
  let blocks = 0;
  let dollar = false;
  let onLeft = false;
  // A file of T-SQL batches: a routine runs to its `GO`, whatever `;` it holds.
  const batches = tokens.some((t) => t.alone && t.word === "GO");
  const end = (token: Token): void => {
    const symbol = outline.at(current);
    if (symbol) symbol.endLine = lineOf(token.offset);
    current = -1;
    object = "";
    verb = "";
    parens.length = 0;
    blocks = 0;
    onLeft = false;
  };
  /** The parts of `schema.name` from the word at `at`, and the token after them. */
  const dottedName = (at: number): { parts: string[]; next: number } => {
    const parts = [tokens[at]!.text];
    let next = at + 1;
    while (tokens[next]?.text === "." && tokens[next + 1]?.type === "w") {
      parts.push(tokens[next + 1]!.text);
      next += 2;
    }
    return { parts, next };
  };
  const reference = (at: number, columns: boolean): number => {
    // `schema.table`, `"Quoted"`: the name and its schema. A `(` after it opens its columns
    // (`INSERT INTO t (a, b)`, `REFERENCES t(id)`) or makes it a function (`FROM unnest(…)`).
    const name = tokens[at];
    if (!name || name.type !== "w" || (KEYWORDS.has(name.word) && !isQuoted(text, name))) return at;
    const { parts, next } = dottedName(at);
    if (tokens[next]?.text === "(" && !columns) return at;
    outline.call({ caller: current, callee: parts.pop()!, receiver: parts.join("."), line: lineOf(name.offset) });
    return next;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === "p") {
      if (token.text === "$$") dollar = !dollar;
      else if (token.text === "(") parens.push(false);
      else if (token.text === ")") parens.pop();
      else if (token.text === ";" && !dollar && parens.length === 0 && blocks === 0 && !(batches && CREATED[object] === "function")) end(token);
      continue;
    }
    if (token.type !== "w") continue;
    const word = token.word;
    if (word === "GO" && token.alone && !dollar) {
      // T-SQL's batch separator.
      end(token);
      continue;
    }
    if (word === "CREATE" && (verb === "" || (parens.length === 0 && blocks === 0 && !dollar))) {
      if (current >= 0) end(tokens[i - 1] ?? token);
      // Past `OR REPLACE`, `MATERIALIZED`, `DEFINER = \`root\`@\`%\`` to what it creates.
      let j = i + 1;
      while (tokens[j] && (MODIFIERS.has(tokens[j]!.word) || tokens[j]!.text === "=")) {
        // `= value`, and a user's `@host`.
        if (tokens[j]!.text === "=") j += tokens[j + 2]?.text.startsWith("@") ? (tokens[j + 2]!.text === "@" ? 4 : 3) : 2;
        else j++;
      }
      object = tokens[j] && Object.hasOwn(CREATED, tokens[j]!.word) ? tokens[j]!.word : "?";
      verb = "CREATE";
      const kind = CREATED[object] ?? null;
      j++;
      while (tokens[j] && ["IF", "NOT", "EXISTS", "CONCURRENTLY"].includes(tokens[j]!.word)) j++;
      const nameToken = tokens[j];
      if (kind && nameToken?.type === "w") {
        const { parts, next: k } = dottedName(j);
        const qualified = parts.join(".");
        const name = parts[parts.length - 1]!;
        const header = signatureOf(text, token.offset, tokens[k]?.offset ?? text.length, kind);
        current = outline.add({ name, qualifiedName: qualified, kind, signature: header, doc: firstSentence(docs.get(i) ?? ""), startLine: lineOf(token.offset), endLine: lineOf(token.offset), parent: -1 });
        i = k - 1;
      } else i = j - 1;
      continue;
    }
    if (verb === "") verb = word;
    if (word === "SELECT" && parens.length > 0) parens[parens.length - 1] = true;
    if (CREATED[object] === "function" && !dollar) {
      const next = tokens[i + 1];
      // `BEGIN TRANSACTION` and `BEGIN;` start a transaction, not a block.
      if ((word === "BEGIN" && !["TRAN", "TRANSACTION", "WORK"].includes(next?.word ?? "") && next?.text !== ";") || word === "CASE") blocks++;
      else if (word === "END") {
        // `END IF` closes what opened without a count; `END CASE` what `CASE` counted.
        if (!BLOCK_ENDS.has(next?.word ?? "")) blocks = Math.max(0, blocks - 1);
        if (next && (BLOCK_ENDS.has(next.word) || next.word === "CASE")) i++;
      }
    }
    const previous = tokens[i - 1]?.word ?? "";
    const namesTable =
      (TABLE_BEFORE.has(word) && !(word === "UPDATE" && (previous === "ON" || previous === "KEY")) && !(word === "FROM" && parens.length > 0 && !parens[parens.length - 1])) ||
      (word === "USING" && (verb === "DELETE" || verb === "MERGE") && parens.length === 0);
    if (namesTable) {
      let j = i + 1;
      while (tokens[j]?.word === "ONLY" || tokens[j]?.word === "LATERAL") j++;
      for (;;) {
        const after = reference(j, word !== "FROM" && word !== "JOIN" && word !== "USING");
        if (after === j) break;
        i = after - 1;
        // `FROM a x, b AS y`: past an alias to the next table of the list.
        let k = after;
        if (tokens[k]?.word === "AS") k++;
        if (tokens[k]?.type === "w" && !KEYWORDS.has(tokens[k]!.word)) k++;
        if (word !== "FROM" || tokens[k]?.text !== ",") break;
        j = k + 1;
      }
    } else if (word === "TABLE" && (previous === "ALTER" || previous === "TRUNCATE")) {
      let j = i + 1;
      while (tokens[j] && ["IF", "EXISTS", "ONLY"].includes(tokens[j]!.word)) j++;
      i = reference(j, true) - 1;
    } else if (word === "ON" && (object === "INDEX" || object === "TRIGGER" || object === "POLICY") && !onLeft) {
      // `CREATE INDEX … ON orders (…)`, `CREATE TRIGGER … ON orders`: the table it is made on.
      onLeft = true;
      i = reference(tokens[i + 1]?.word === "ONLY" ? i + 2 : i + 1, true) - 1;
    } else if (tokens[i + 1]?.text === "(" && !BUILTINS.has(word) && !KEYWORDS.has(word) && !NOT_CALLED_AFTER.has(previous)) {
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
  /** Where the last token ended and the last line ended: a comment on a token's line is about it, not a doc of what follows. */
  let lastEnd = -1;
  let lastNewline = -1;
  /** The open dollar quote's tag (`$body$`) and where it closes, or "" outside one. */
  let tag = "";
  let tagClose = text.length;
  // MySQL escapes quotes with `\`; standard SQL (Postgres, SQLite, T-SQL) does not, outside `E'…'`.
  const backslashes = text.includes("`") || /\bENGINE\s*=/i.test(text);
  const push = (token: Token, end: number): void => {
    if (comment !== "") docs.set(tokens.length, comment);
    comment = "";
    tokens.push(token);
    lastEnd = end;
  };
  /** The next offset of `char` at or after `from` (the text's length when none), remembered: a file of a million `[` looks ahead once. */
  const next = new Map<string, number>();
  const nextOf = (char: string, from: number): number => {
    let at = next.get(char);
    if (at === undefined || (at < from && at < text.length)) {
      const found = text.indexOf(char, from);
      at = found < 0 ? text.length : found;
      next.set(char, at);
    }
    return at;
  };
  const ownLine = (): boolean => lastEnd < 0 || lastNewline >= lastEnd;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (c === "\n") lastNewline = i;
      i++;
      continue;
    }
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      comment = ownLine() ? `${comment}${text.slice(i, stop)}\n` : "";
      i = stop;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      comment = ownLine() ? text.slice(i, stop) : "";
      const inner = comment === "" ? text.slice(i, stop).lastIndexOf("\n") : comment.lastIndexOf("\n");
      if (inner >= 0) lastNewline = i + inner;
      i = stop;
      continue;
    }
    if (delimiter !== ";" && text.startsWith(delimiter, i)) {
      push({ word: ";", text: ";", type: "p", offset: i }, i + delimiter.length);
      i += delimiter.length;
      continue;
    }
    if (c === "'") {
      // Inside a dollar-quoted body a string ends by the body's end at the latest (a plpython
      // body's `# it's` is no SQL string).
      const limit = tag ? tagClose : text.length;
      const escapes = backslashes || text[i - 1] === "E" || text[i - 1] === "e";
      let j = i + 1;
      while (j < limit && !(text[j] === "'" && text[j + 1] !== "'")) j += text[j] === "'" || (escapes && text[j] === "\\") ? 2 : 1;
      push({ word: "", text: "", type: "s", offset: i }, j + 1);
      i = Math.min(j + 1, limit);
      continue;
    }
    if (c === '"' || c === "`" || c === "[") {
      // A quoted name ends on its line; `[` opens one in T-SQL only when a name follows (not an array subscript).
      const close = c === "[" ? "]" : c;
      const k = nextOf(close, i + 1);
      const end = k - i <= 130 && k < nextOf("\n", i + 1) ? k - i - 1 : -1;
      const name = end < 0 ? "" : text.slice(i + 1, k);
      if (end >= 0 && (c !== "[" || /^[\w\s.$#@-]+$/.test(name))) {
        push({ word: name.toUpperCase(), text: name, type: "w", offset: i }, i + end + 2);
        i += end + 2;
        continue;
      }
    }
    DOLLAR.lastIndex = i;
    const dollar = c === "$" ? DOLLAR.exec(text) : null;
    if (dollar) {
      const quote = dollar[0];
      if (tag === "" || quote === tag) {
        // A body opens or closes.
        tag = tag === "" ? quote : "";
        if (tag) {
          const close = text.indexOf(quote, i + quote.length);
          tagClose = close < 0 ? text.length : close;
        }
        push({ word: "$$", text: "$$", type: "p", offset: i }, i + quote.length);
        i += quote.length;
      } else {
        // Another tag inside a body (`$m$ … $m$`) quotes a string.
        const close = text.indexOf(quote, i + quote.length);
        const stop = close < 0 || close > tagClose ? tagClose : close + quote.length;
        push({ word: "", text: "", type: "s", offset: i }, stop);
        i = stop;
      }
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word) {
      const upper = word[0].toUpperCase();
      const end = i + word[0].length;
      if (upper === "DELIMITER" && (tokens.length === 0 || tokens[tokens.length - 1]!.text === ";")) {
        const newline = text.indexOf("\n", i);
        const stop = newline < 0 ? text.length : newline;
        delimiter = text.slice(end, stop).trim() || ";";
        i = stop;
        continue;
      }
      const token: Token = { word: upper, text: word[0], type: "w", offset: i };
      if (upper === "GO" && ownLine() && /^[ \t]*(?:\d+[ \t]*)?(?:\r?\n|$)/.test(text.slice(end, end + 16))) token.alone = true;
      push(token, end);
      i = end;
      continue;
    }
    push({ word: c, text: c, type: "p", offset: i }, i + 1);
    i++;
    // pg_dump's `COPY t (…) FROM stdin;` is followed by rows of data up to a line `\.`.
    if (c === ";" && tokens[tokens.length - 2]?.word === "STDIN" && tokens[tokens.length - 3]?.word === "FROM") {
      const close = text.indexOf("\n\\.", i);
      i = close < 0 ? text.length : close + 3;
    }
  }
  return { tokens, docs };
}
