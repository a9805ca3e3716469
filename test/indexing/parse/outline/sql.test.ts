import { describe, expect, it } from "vitest";
import { sqlOutline } from "../../../../src/indexing/parse/outline/sql.js";
import { shape } from "./outline-helpers.js";

const SCHEMA = `-- Customers who buy.
CREATE TABLE customers (
  id serial PRIMARY KEY,
  name varchar(100)
);
CREATE TABLE IF NOT EXISTS sales.orders (
  id int,
  customer_id int REFERENCES customers(id)
);
CREATE OR REPLACE VIEW big_orders AS
  SELECT o.* FROM sales.orders o JOIN customers c ON c.id = o.customer_id WHERE total(o.id) > 10;
CREATE FUNCTION total(order_id int) RETURNS numeric AS $$
BEGIN
  RETURN (SELECT sum(x) FROM line_items WHERE id = order_id);
END;
$$ LANGUAGE plpgsql;
CREATE INDEX idx ON sales.orders (customer_id);
INSERT INTO customers (name) VALUES ('a;b');
DELIMITER //
CREATE PROCEDURE refresh()
BEGIN
  IF 1 THEN UPDATE customers SET name = 'x'; END IF;
  DELETE FROM sales.orders;
END //
DELIMITER ;
SELECT * FROM big_orders, "Archive" a;
`;

describe("sqlOutline", () => {
  it("makes CREATE statements definitions and the tables and functions queries name references", () => {
    const parsed = sqlOutline(SCHEMA);
    expect(shape(parsed)).toEqual({
      symbols: [
        "table customers 2-5 ^-1",
        "table sales.orders 6-9 ^-1",
        "view big_orders 10-11 ^-1",
        "function total 12-16 ^-1",
        "function refresh 20-24 ^-1",
      ],
      calls: [
        ".customers @8 <1",
        "sales.orders @11 <2",
        ".customers @11 <2",
        ".total @11 <2",
        ".line_items @14 <3",
        "sales.orders @17 <-1",
        ".customers @18 <-1",
        ".customers @22 <4",
        "sales.orders @23 <4",
        ".big_orders @26 <-1",
        ".Archive @26 <-1",
      ],
    });
    expect(parsed.symbols[0]).toMatchObject({ name: "customers", signature: "CREATE TABLE customers", doc: "Customers who buy." });
    expect(parsed.symbols[1]!.name).toBe("orders");
    expect(parsed.symbols[3]!.signature).toBe("CREATE FUNCTION total(order_id int) RETURNS numeric");
  });

  it("ends T-SQL procedures at GO and survives unclosed strings and bodies", () => {
    expect(shape(sqlOutline("CREATE PROCEDURE dbo.p AS\nBEGIN\n  SELECT 1; SELECT * FROM [dbo].[t];\nEND\nGO\nCREATE VIEW v AS SELECT 1\nGO\n"))).toEqual({
      symbols: ["function dbo.p 1-5 ^-1", "view v 6-7 ^-1"],
      calls: ["dbo.t @3 <0"],
    });
    expect(shape(sqlOutline("CREATE TABLE t (a text DEFAULT 'open")).symbols).toEqual(["table t 1-1 ^-1"]);
    expect(shape(sqlOutline("CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; ")).symbols).toEqual(["function f 1-1 ^-1"]);
    expect(sqlOutline("CREATE").symbols).toEqual([]);
  });

  it("ends routines where their dialect does: END CASE, GO alone on its line, BEGIN TRANSACTION", () => {
    expect(shape(sqlOutline("CREATE PROCEDURE p() BEGIN CASE x WHEN 1 THEN SELECT 1; END CASE; END;\nCREATE TABLE after_case (a int);\n")).symbols).toEqual([
      "function p 1-1 ^-1",
      "table after_case 2-2 ^-1",
    ]);
    const tsql = "CREATE PROCEDURE dbo.p AS\nSET NOCOUNT ON;\nBEGIN TRANSACTION;\nSELECT * FROM dbo.orders;\nCOMMIT;\nGO\nCREATE TABLE after_go (go int);\nSELECT go FROM after_go;\n";
    expect(shape(sqlOutline(tsql))).toEqual({
      symbols: ["function dbo.p 1-6 ^-1", "table after_go 7-7 ^-1"],
      calls: ["dbo.orders @4 <0", ".after_go @8 <-1"],
    });
  });

  it("reads strings as their dialect does: backslashes, dollar-quote tags, pg_dump's COPY data", () => {
    expect(shape(sqlOutline("SELECT 'C:\\';\nCREATE TABLE t (a int);\n")).symbols).toEqual(["table t 2-2 ^-1"]);
    const body = "CREATE FUNCTION f() RETURNS int AS $fn$\n  SELECT $m$ don't $m$ FROM a;\n$fn$ LANGUAGE sql;\nCREATE FUNCTION g() RETURNS int AS $$\n# it's python\n$$ LANGUAGE plpython3u;\nCREATE TABLE after_py (a int);\n";
    expect(shape(sqlOutline(body))).toEqual({ symbols: ["function f 1-3 ^-1", "function g 4-6 ^-1", "table after_py 7-7 ^-1"], calls: [".a @2 <0"] });
    const dump = "COPY public.users (id, name) FROM stdin;\n1\tO'Brien\n\\.\n\nCREATE VIEW v AS SELECT * FROM users;\n";
    expect(shape(sqlOutline(dump))).toEqual({ symbols: ["view v 5-5 ^-1"], calls: ["public.users @1 <-1", ".users @5 <0"] });
  });

  it("makes definitions of CREATE statements only, and no references of columns, types and keys", () => {
    expect(sqlOutline("CREATE PUBLICATION pub FOR TABLE users;\nCREATE EVENT ev ON SCHEDULE EVERY 1 DAY DO TRUNCATE TABLE logs;\n").symbols).toEqual([]);
    const noise = "CREATE TABLE u (a character varying(255), e vector(3), UNIQUE KEY uk_email (e), t timestamp ON UPDATE CURRENT_TIMESTAMP);\nSELECT EXTRACT(YEAR FROM created_at) FROM u;\nINSERT INTO u VALUES (1) ON DUPLICATE KEY UPDATE a = 1;\nDELETE FROM u USING v WHERE u.a = v.a;\n";
    expect(shape(sqlOutline(noise)).calls).toEqual([".u @2 <-1", ".u @3 <-1", ".u @4 <-1", ".v @4 <-1"]);
  });

  it("keeps only the comment above a statement as its doc", () => {
    expect(sqlOutline("SELECT 1 FROM t; -- trailing\n-- Users who sign in.\nCREATE TABLE u (a int);\n").symbols[0]!.doc).toBe("Users who sign in.");
  });
});
