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
});
