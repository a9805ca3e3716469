import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import type { CallsResult } from "../../src/graph/types.js";
import { TempRepo } from "../helpers/repo.js";
import { withIndexedEngine } from "../helpers/index.js";
import { C, CPP, CSHARP, GO, JAVA, JAVASCRIPT, KOTLIN, PHP, PYTHON, RUBY, RUST, SCALA, SHELL, SWIFT, WORKSPACE } from "./fixtures.js";

/** `caller path:qualified name how` for each call site of a callers answer. */
function callerEdges(result: CallsResult): string[] {
  return result.calls.map((c) => `${c.path}:${c.symbol?.qualifiedName ?? "<module>"} ${c.how}`);
}

/** `target path:qualified name how` for each call of a callees answer. */
function calleeEdges(result: CallsResult): string[] {
  return result.calls.map((c) => `${c.symbol?.path}:${c.symbol?.qualifiedName} ${c.how}`);
}

function fixture(files: Record<string, string>) {
  const state: { repo?: TempRepo; engine?: Engine } = {};
  beforeAll(async () => {
    state.repo = TempRepo.create(files);
    state.engine = new Engine(state.repo.root, { jobs: 1, git: false });
    await state.engine.index();
  });
  afterAll(async () => {
    await state.engine?.close();
    state.repo?.dispose();
  });
  return () => state.engine!;
}

describe("call resolution: Python", () => {
  const engine = fixture(PYTHON);

  it("resolves self calls to an inherited method and super() to the base class", async () => {
    const callees = calleeEdges(await engine().callees("StripeGateway.charge"));
    expect(callees).toEqual(["shop/payments.py:Gateway.send hierarchy", "shop/payments.py:Gateway.send hierarchy"]);
  });

  it("resolves self calls to a method of the same class", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.refund"))).toEqual(["shop/payments.py:StripeGateway.charge receiver"]);
  });

  it("follows aliased imports, module aliases and constructors", async () => {
    expect(calleeEdges(await engine().callees("Gateway.send"))).toEqual(["shop/util.py:retry import"]);
    expect(calleeEdges(await engine().callees("charge_card")).sort()).toEqual([
      "shop/payments.py:StripeGateway local",
      "shop/payments.py:StripeGateway.charge unique",
      "shop/util.py:log_event import",
    ]);
  });

  it("follows a package's re-export to the defining module", async () => {
    expect(callerEdges(await engine().callers("charge_card"))).toEqual([
      "app/main.py:checkout import",
      "tests/test_payments.py:test_charge import",
    ]);
  });

  it("keeps every candidate of an ambiguous call", async () => {
    const result = await engine().callees("page");
    expect(calleeEdges(result)).toEqual(["views/a.py:render ambiguous", "views/b.py:render ambiguous"]);
    expect(result.calls.every((c) => c.candidates === 2)).toBe(true);
  });

  it("finds symbols bare, qualified, by module path and by file", async () => {
    const e = engine();
    expect((await e.symbol("send")).matches.map((m) => m.qualifiedName)).toEqual(["Gateway.send"]);
    expect((await e.symbol("StripeGateway.charge")).matches.map((m) => `${m.path}:${m.startLine}`)).toEqual(["shop/payments.py:11"]);
    expect((await e.symbol("shop.util.retry")).matches.map((m) => m.path)).toEqual(["shop/util.py"]);
    expect((await e.symbol("util.py:log_event")).matches.map((m) => m.kind)).toEqual(["function"]);
    expect((await e.symbol("render")).matches.map((m) => m.path)).toEqual(["views/a.py", "views/b.py"]);
  });

  it("suggests close names for an unknown one", async () => {
    const result = await engine().symbol("charge_crd");
    expect(result.matches).toEqual([]);
    expect(result.suggestions).toContain("charge_card");
  });

  it("walks impact through a cycle without looping, tests apart", async () => {
    const impact = await engine().impact("ping", { depth: 10 });
    expect(impact.byDepth).toEqual([2]);
    const [pong, start] = impact.tree;
    expect(pong?.symbol?.name).toBe("pong");
    expect(pong?.children.map((c) => [c.symbol?.name, c.seen])).toEqual([["ping", true]]);
    expect(start?.symbol?.name).toBe("start");
    const charge = await engine().impact("retry");
    expect(charge.tests).toEqual(["tests/test_payments.py"]);
    expect(charge.files).toEqual(["app/main.py", "shop/payments.py", "shop/util.py"]);
    expect(charge.counts.tests).toBe(1);
    expect(charge.truncated).toBe(false);
  });

  it("cuts impact at the depth asked and says so", async () => {
    const impact = await engine().impact("retry", { depth: 1 });
    expect(impact.byDepth).toHaveLength(1);
    expect(impact.truncated).toBe(true);
  });

  it("lists a file's imports both ways and its call neighbours", async () => {
    const related = await engine().related("shop/payments.py");
    expect(related.imports).toEqual(["shop/util.py"]);
    expect(related.importedBy).toEqual(["app/main.py", "shop/__init__.py", "tests/test_payments.py"]);
    expect(related.calls.map((c) => c.path)).toEqual(["shop/util.py"]);
    expect(related.calledBy.map((c) => c.path).sort()).toEqual(["app/main.py", "tests/test_payments.py"]);
  });
});

describe("call resolution: JavaScript and TypeScript", () => {
  const engine = fixture(JAVASCRIPT);

  it("follows named imports through aliased and star re-exports", async () => {
    const edges = calleeEdges(await engine().callees("main")).sort();
    expect(edges).toEqual([
      "src/format.js:pretty import",
      "src/math.js:add import",
      "src/math.js:double import",
      "src/widget.ts:Widget import",
      "src/widget.ts:Widget.draw unique",
    ]);
  });

  it("resolves this calls through the class hierarchy across files", async () => {
    expect(calleeEdges(await engine().callees("Widget.draw"))).toEqual(["src/base.ts:Base.paint hierarchy"]);
  });

  it("resolves a call within the same module", async () => {
    expect(callerEdges(await engine().callers("add"))).toEqual(["src/app.js:main import", "src/math.js:double local"]);
  });
});

describe("call resolution: a JS/TS monorepo's workspace packages", () => {
  const engine = fixture(WORKSPACE);

  it("resolves imports of a workspace package by name to its sources, deep imports too", async () => {
    expect(calleeEdges(await engine().callees("render")).sort()).toEqual([
      "packages/util/src/format.ts:formatPrice import",
      "packages/util/src/money/round.ts:roundCents import",
    ]);
    const related = await engine().related("packages/app/src/main.ts");
    expect(related.imports).toEqual(["packages/util/src/index.ts", "packages/util/src/money/round.ts"]);
  });
});

describe("call resolution: Go", () => {
  const engine = fixture(GO);

  it("resolves package-qualified calls through the import path", async () => {
    const edges = calleeEdges(await engine().callees("main")).sort();
    expect(edges).toEqual(["pkg/store/helpers.go:Count import", "pkg/store/store.go:New import", "pkg/store/store.go:Store.Add unique"]);
  });

  it("resolves calls on the method receiver", async () => {
    expect(calleeEdges(await engine().callees("Store.Add"))).toEqual(["pkg/store/store.go:Store.touch receiver"]);
  });
});

describe("call resolution: Java", () => {
  const engine = fixture(JAVA);

  it("resolves inherited methods, called bare and on this", async () => {
    expect(calleeEdges(await engine().callees("Dog.bark")).sort()).toEqual([
      "src/main/java/com/shop/Animal.java:Animal.name hierarchy",
      "src/main/java/com/shop/Animal.java:Animal.speak hierarchy",
    ]);
    expect(calleeEdges(await engine().callees("Animal.speak"))).toEqual(["src/main/java/com/shop/Animal.java:Animal.name local"]);
  });

  it("resolves an imported class's constructor", async () => {
    expect(calleeEdges(await engine().callees("Main.main"))).toEqual([
      "src/main/java/com/shop/Dog.java:Dog import",
      "src/main/java/com/shop/Dog.java:Dog.bark unique",
    ]);
  });
});

describe("call resolution: Rust", () => {
  const engine = fixture(RUST);

  it("resolves a path call through `use crate::` to the impl's method", async () => {
    expect(calleeEdges(await engine().callees("area_of"))).toEqual(["src/shapes.rs:Circle.new receiver", "src/shapes.rs:Circle.area unique"]);
  });

  it("resolves Self:: and self. calls inside an impl", async () => {
    expect(calleeEdges(await engine().callees("Circle.new"))).toEqual(["src/shapes.rs:Circle.check receiver"]);
    expect(calleeEdges(await engine().callees("Circle.area"))).toEqual(["src/shapes.rs:Circle.square receiver"]);
  });

  it("links the module declaration's file through the import graph", async () => {
    expect((await engine().related("src/lib.rs")).imports).toEqual(["src/shapes.rs"]);
  });
});

describe("call resolution: C", () => {
  const engine = fixture(C);

  it("resolves calls to the definitions behind the prototypes that includes bring", async () => {
    expect(calleeEdges(await engine().callees("zz_compress"))).toEqual([
      "lib/zz_errors.c:zz_errorName import",
      "lib/zz_compress.c:count_bytes local",
      "lib/zz_compress.c:zz_level local",
    ]);
    expect(calleeEdges(await engine().callees("count_bytes"))).toEqual(["lib/common/mem.h:mem_read import"]);
    expect(callerEdges(await engine().callers("zz_compress"))).toEqual(["programs/cli.c:main import"]);
  });

  it("resolves includes beside the file, through CMake's include folders, and by path tail", async () => {
    expect((await engine().related("lib/zz_compress.c")).imports).toEqual(["include/zz/zz.h", "lib/common/mem.h"]);
    expect((await engine().related("include/zz/zz.h")).imports).toEqual(["include/zz/zz_errors.h"]);
    // `<config.h>`: config/ is an include folder; tests/config.h is the other file of that name.
    expect((await engine().related("programs/cli.c")).imports).toEqual(["config/config.h", "include/zz/zz.h"]);
  });

  it("finds a prototype and its definition as one function", async () => {
    const found = (await engine().symbol("zz_compress")).matches;
    expect(found.map((m) => `${m.path}:${m.startLine}${m.decl ? " decl" : ""}`)).toEqual(["include/zz/zz.h:5 decl", "lib/zz_compress.c:8"]);
    expect(found[0]?.doc).toBe("zz_compress() : compresses src into dst.");
  });
});

describe("call resolution: C++", () => {
  const engine = fixture(CPP);

  it("resolves this-> and bare calls in out-of-class methods through the class hierarchy", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.charge"))).toEqual([
      "include/shop/util.h:shop.clamp import",
      "src/gateway.cpp:shop.Gateway.send hierarchy",
    ]);
    // Inside the class body, a sibling method is in scope: the declaration's definition answers.
    expect(calleeEdges(await engine().callees("StripeGateway.refund"))).toEqual(["src/gateway.cpp:shop.StripeGateway.charge local"]);
  });

  it("resolves namespace-qualified and static calls, never the standard library's", async () => {
    expect(calleeEdges(await engine().callees("Gateway.send"))).toEqual(["src/util.cpp:shop.util.retry unique"]);
    expect(calleeEdges(await engine().callees("Gateway.create"))).toEqual(["include/shop/gateway.h:shop.StripeGateway import"]);
    expect(calleeEdges(await engine().callees("main")).slice(1)).toEqual([
      "src/gateway.cpp:shop.Gateway.create receiver",
      "src/gateway.cpp:shop.Gateway.send unique",
      "src/gateway.cpp:shop.StripeGateway.charge unique",
    ]);
    expect(calleeEdges(await engine().callees("outside"))).toEqual([]);
    // `using namespace shop::util;` opens it.
    expect(calleeEdges(await engine().callees("tool"))).toEqual(["src/util.cpp:shop.util.retry import"]);
  });

  it("takes a prototype to the function that defines it, never to a method of the same name", async () => {
    expect(calleeEdges(await engine().callees("main"))[0]).toBe("src/log.cpp:flush import");
    expect(callerEdges(await engine().callers("Buffer.flush"))).toEqual([]);
  });

  it("finds callers of a method declared in its class and defined outside it", async () => {
    expect(callerEdges(await engine().callers("Gateway.send"))).toEqual(["src/gateway.cpp:shop.StripeGateway.charge hierarchy", "src/main.cpp:main unique"]);
    expect((await engine().related("src/main.cpp")).imports).toEqual(["include/shop/gateway.h", "include/shop/log.h"]);
  });
});

describe("call resolution: include folders follow the build files", () => {
  it("resolves an include anew when CMakeLists.txt names other folders", async () => {
    const repo = TempRepo.create(C);
    try {
      await withIndexedEngine(repo.root, { git: false }, async (engine) => {
        expect((await engine.related("programs/cli.c")).imports).toContain("config/config.h");
        repo.write({ "CMakeLists.txt": "project(zz C)\ninclude_directories(include tests)\n" });
        await engine.index();
        expect((await engine.related("programs/cli.c")).imports).toEqual(["include/zz/zz.h", "tests/config.h"]);
      });
    } finally {
      repo.dispose();
    }
  });
});

describe("call resolution: C#", () => {
  const engine = fixture(CSHARP);

  it("resolves bare, this. and base. calls through the class hierarchy across namespaces", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.Charge"))).toEqual([
      // `using static Shop.Payments.Clamp;` opens the class's static methods.
      "src/Shop.Payments/Clamp.cs:Shop.Payments.Clamp.Limit import",
      "src/Shop.Core/Gateway.cs:Shop.Core.Gateway.Send hierarchy",
      "src/Shop.Core/Gateway.cs:Shop.Core.Gateway.Send hierarchy",
      "src/Shop.Core/Gateway.cs:Shop.Core.Gateway.Send hierarchy",
    ]);
  });

  it("resolves a static call on a type of the same namespace, declared file-scoped", async () => {
    expect(calleeEdges(await engine().callees("Gateway.Send"))).toEqual(["src/Shop.Core/Retry.cs:Shop.Core.Retry.Run receiver"]);
  });

  it("finds a partial class's methods in its other files, and a constructor through a using", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.Refund"))).toEqual(["src/Shop.Payments/StripeGateway.cs:Shop.Payments.StripeGateway.Charge local"]);
    // Both pieces of the partial class; `gateway` is a local of no known type: the one `Refund`.
    expect(calleeEdges(await engine().callees("Program.Main"))).toEqual([
      "src/Shop.Payments/StripeGateway.Refund.cs:Shop.Payments.StripeGateway import",
      "src/Shop.Payments/StripeGateway.cs:Shop.Payments.StripeGateway import",
      "src/Shop.Payments/StripeGateway.Refund.cs:Shop.Payments.StripeGateway.Refund unique",
    ]);
  });

  it("imports the files that declare a namespace a using names", async () => {
    expect((await engine().related("src/App/Program.cs")).imports).toEqual([
      "src/Shop.Payments/Clamp.cs",
      "src/Shop.Payments/StripeGateway.Refund.cs",
      "src/Shop.Payments/StripeGateway.cs",
    ]);
    expect((await engine().related("src/Shop.Payments/StripeGateway.cs")).imports).toEqual(["src/Shop.Core/Gateway.cs", "src/Shop.Core/Retry.cs", "src/Shop.Payments/Clamp.cs"]);
  });
});

describe("call resolution: Ruby", () => {
  const engine = fixture(RUBY);

  it("resolves bare and self. calls through the superclass and its mixins", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.charge"))).toEqual([
      "lib/shop/gateway.rb:Shop.Gateway.send_amount hierarchy",
      "lib/shop/gateway.rb:Shop.Gateway.send_amount hierarchy",
      "lib/shop/retry.rb:Shop.Retry.log receiver",
    ]);
    expect(calleeEdges(await engine().callees("Gateway.send_amount"))).toEqual(["lib/shop/retry.rb:Shop.Retry.with_retry hierarchy"]);
  });

  it("finds a reopened class's methods in its other files, and Class.new as the class", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.refund"))).toEqual(["lib/shop/stripe_gateway.rb:Shop.StripeGateway.charge local"]);
    // The class is reopened: both of its pieces.
    expect(calleeEdges(await engine().callees("checkout"))).toEqual([
      "lib/shop/refunds.rb:Shop.StripeGateway ambiguous",
      "lib/shop/stripe_gateway.rb:Shop.StripeGateway ambiguous",
      "lib/shop/refunds.rb:Shop.StripeGateway.refund unique",
    ]);
  });

  it("resolves require from the load path and require_relative from the file, never a gem", async () => {
    expect((await engine().related("lib/shop.rb")).imports).toEqual(["lib/shop/gateway.rb", "lib/shop/stripe_gateway.rb"]);
    expect((await engine().related("app/checkout.rb")).imports).toEqual(["lib/shop.rb"]);
    expect((await engine().related("lib/shop/gateway.rb")).imports).toEqual(["lib/shop/retry.rb"]);
  });
});

describe("call resolution: shell scripts", () => {
  const engine = fixture(SHELL);

  it("resolves commands to functions of the sourced scripts, from the script's folder or the root", async () => {
    expect(calleeEdges(await engine().callees("deploy"))).toEqual(["scripts/lib/util.sh:retry import", "scripts/lib/common.sh:log import"]);
    expect((await engine().related("scripts/deploy.sh")).imports).toEqual(["scripts/lib/common.sh", "scripts/lib/util.sh"]);
    expect((await engine().related("scripts/lib/util.sh")).imports).toEqual(["scripts/lib/common.sh"]);
  });
});

describe("call resolution: a C# namespace gains a file", () => {
  it("imports the new file where a using names its namespace, and resolves calls into it", async () => {
    const repo = TempRepo.create({
      ...CSHARP,
      "src/App/Program.cs": "using Shop.Payments;\n\nnamespace App\n{\n    class Program\n    {\n        static int Main() => Tax.Compute(1);\n    }\n}\n",
    });
    try {
      await withIndexedEngine(repo.root, { git: false }, async (engine) => {
        expect(calleeEdges(await engine.callees("Program.Main"))).toEqual([]);
        repo.write({ "src/Shop.Payments/Tax.cs": "namespace Shop.Payments\n{\n    static class Tax\n    {\n        public static int Compute(int x) => x;\n    }\n}\n" });
        await engine.index();
        expect(calleeEdges(await engine.callees("Program.Main"))).toEqual(["src/Shop.Payments/Tax.cs:Shop.Payments.Tax.Compute receiver"]);
        expect((await engine.related("src/App/Program.cs")).imports).toContain("src/Shop.Payments/Tax.cs");
      });
    } finally {
      repo.dispose();
    }
  });
});

describe("call resolution: PHP", () => {
  const engine = fixture(PHP);

  it("resolves static calls, new, functions through use, $this-> and parent::", async () => {
    expect(calleeEdges(await engine().callees("UserController.store"))).toEqual([
      "app/Http/Controllers/Controller.php:App.Http.Controllers.Controller.authorize hierarchy",
      "app/Models/User.php:App.Models.User.create receiver",
      "app/Http/Controllers/UserController.php:App.Http.Controllers.UserController.audit receiver",
      // `use function App\Support\helper;`
      "app/Support/helpers.php:App.Support.helper import",
      "app/Models/User.php:App.Models.User import",
    ]);
  });

  it("resolves a member call on an unknown object by its name, inherited methods included", async () => {
    expect(calleeEdges(await engine().callees("UserController.audit"))).toEqual(["app/Models/Model.php:App.Models.Model.save unique"]);
  });

  it("imports the files that declare what a use names, and a require from the file's folder", async () => {
    expect((await engine().related("app/Http/Controllers/UserController.php")).imports).toEqual(["app/Models/User.php", "app/Support/helpers.php"]);
    expect((await engine().related("legacy/page.php")).imports).toEqual(["legacy/functions.php"]);
    expect(callerEdges(await engine().callers("legacy_format"))).toEqual(["legacy/page.php:<module> import"]);
  });
});

describe("call resolution: Kotlin", () => {
  const engine = fixture(KOTLIN);

  it("resolves bare, this. and super. calls through the hierarchy, and functions of an imported package", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.charge"))).toEqual([
      "util/src/main/kotlin/com/acme/util/Limits.kt:com.acme.util.limit import",
      "core/src/main/kotlin/com/acme/core/Gateway.kt:com.acme.core.Gateway.send hierarchy",
      "core/src/main/kotlin/com/acme/core/Gateway.kt:com.acme.core.Gateway.send hierarchy",
      "core/src/main/kotlin/com/acme/core/Gateway.kt:com.acme.core.Gateway.send hierarchy",
    ]);
  });

  it("resolves an object's function from the same package", async () => {
    expect(calleeEdges(await engine().callees("Gateway.send"))).toEqual(["core/src/main/kotlin/com/acme/core/Retry.kt:com.acme.core.Retry.run receiver"]);
  });

  it("resolves an aliased import, a companion's function, a constructor and an extension function", async () => {
    expect(calleeEdges(await engine().callees("main"))).toEqual([
      // `.charge(1)` on what `create()` returns, and on `g`: no type inference, the one `charge`.
      "shop/src/main/kotlin/com/acme/shop/StripeGateway.kt:com.acme.shop.StripeGateway.charge unique",
      "shop/src/main/kotlin/com/acme/shop/StripeGateway.kt:com.acme.shop.StripeGateway.create receiver",
      "shop/src/main/kotlin/com/acme/shop/StripeGateway.kt:com.acme.shop.StripeGateway import",
      "shop/src/main/kotlin/com/acme/shop/StripeGateway.kt:com.acme.shop.StripeGateway.charge unique",
      "util/src/main/kotlin/com/acme/util/Limits.kt:com.acme.util.shout unique",
    ]);
    // An extension function by its package's name, an enum's entry by its enum's file.
    expect((await engine().related("app/src/main/kotlin/com/acme/app/Main.kt")).imports).toEqual([
      "core/src/main/kotlin/com/acme/core/Mode.kt",
      "shop/src/main/kotlin/com/acme/shop/StripeGateway.kt",
      "util/src/main/kotlin/com/acme/util/Limits.kt",
    ]);
  });
});

describe("call resolution: Scala", () => {
  const engine = fixture(SCALA);

  it("resolves a renamed import, bare and super. calls through the hierarchy", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.charge"))).toEqual([
      "util/src/main/scala/com/acme/util/Limits.scala:com.acme.util.Limits.limit receiver",
      "core/src/main/scala/com/acme/core/Gateway.scala:com.acme.core.Gateway.send hierarchy",
      "core/src/main/scala/com/acme/core/Gateway.scala:com.acme.core.Gateway.send hierarchy",
    ]);
    expect(calleeEdges(await engine().callees("Gateway.send"))).toEqual(["core/src/main/scala/com/acme/core/Gateway.scala:com.acme.core.Retry.run receiver"]);
  });

  it("finds a companion object's method through its class's name, imported with a wildcard", async () => {
    expect(calleeEdges(await engine().callees("Main.main"))).toEqual(["shop/src/main/scala/com/acme/shop/StripeGateway.scala:com.acme.shop.StripeGateway.create receiver"]);
    expect((await engine().related("app/src/main/scala/com/acme/app/Main.scala")).imports).toEqual(["shop/src/main/scala/com/acme/shop/StripeGateway.scala"]);
  });
});

describe("call resolution: Swift", () => {
  const engine = fixture(SWIFT);

  it("prefers the file's own module to an imported one, and resolves bare, self. and super. calls through the hierarchy", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.charge"))).toEqual([
      "Sources/Core/Retry.swift:clamp import",
      // Core defines a `limit` too: the module's own comes first, as the compiler takes it.
      "Sources/Shop/Limits.swift:limit local",
      "Sources/Core/Gateway.swift:Gateway.send hierarchy",
      "Sources/Core/Gateway.swift:Gateway.send hierarchy",
      "Sources/Core/Gateway.swift:Gateway.send hierarchy",
    ]);
    expect(calleeEdges(await engine().callees("Gateway.send"))).toEqual(["Sources/Core/Retry.swift:Retry.run receiver"]);
  });

  it("resolves across a type and its extensions, both ways", async () => {
    // From an extension (in a file of its own) to the class body, and to the class itself.
    expect(calleeEdges(await engine().callees("StripeGateway.refund"))).toEqual(["Sources/Shop/StripeGateway.swift:StripeGateway.charge local"]);
    expect(calleeEdges(await engine().callees("StripeGateway.make"))).toEqual(["Sources/Shop/StripeGateway.swift:StripeGateway local"]);
    // `self.init` in an extension's initializer: the type's initializers in all its pieces, the class body's too.
    expect(calleeEdges(await engine().callees("StripeGateway.init"))).toEqual([
      "Sources/Core/Gateway.swift:Gateway.init hierarchy",
      "Sources/Shop/StripeGateway+Refund.swift:StripeGateway.init receiver",
      "Sources/Shop/StripeGateway.swift:StripeGateway.init receiver",
    ]);
    // From an extension to the superclass, and to a default implementation of a protocol the extension conforms to.
    expect(calleeEdges(await engine().callees("StripeGateway.resend"))).toEqual(["Sources/Core/Gateway.swift:Gateway.send hierarchy"]);
    expect(calleeEdges(await engine().callees("StripeGateway.check"))).toEqual(["Sources/Core/Retry.swift:Auditable.audit hierarchy"]);
    // From a test of another module (`@testable import Shop`), through the type to its extension.
    expect(calleeEdges(await engine().callees("StripeGatewayTests.testRefund"))).toEqual([
      "Sources/Shop/StripeGateway+Refund.swift:StripeGateway.make receiver",
      "Sources/Shop/StripeGateway+Refund.swift:StripeGateway.refund unique",
    ]);
  });

  it("resolves an implicit member call to a static method, never an instance method of that name", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.retried"))).toEqual(["Sources/Core/Retry.swift:Retry.run unique"]);
  });

  it("resolves a protocol method to its requirement and its default implementation", async () => {
    expect(calleeEdges(await engine().callees("StripeGateway.total"))).toEqual([
      "Sources/Core/Retry.swift:Payments.pay hierarchy",
      "Sources/Core/Retry.swift:Payments.pay hierarchy",
    ]);
  });

  it("finds modules by Package.swift, by SwiftPM's folders and by Tuist's, and sees no module it does not import", async () => {
    // `Tools/shop-cli` is a target of its own (its manifest's `path:`): `Tools/reports` is another module, not imported.
    expect(calleeEdges(await engine().callees("run"))).toEqual([
      "Sources/Shop/StripeGateway+Refund.swift:StripeGateway.make receiver",
      "Sources/Shop/StripeGateway+Refund.swift:StripeGateway.refund unique",
    ]);
    // `Targets/App/Sources/…` is module App, its subfolders too; Widget's functions of the same names are another module's.
    expect(calleeEdges(await engine().callees("launch"))).toEqual([
      "Targets/App/Sources/Setup.swift:setup local",
      "Targets/App/Sources/Views/Home.swift:formatDate local",
    ]);
  });

  it("resolves an import to the files of the module it names", async () => {
    expect((await engine().related("Tests/ShopTests/StripeGatewayTests.swift")).imports).toEqual([
      "Sources/Shop/Limits.swift",
      "Sources/Shop/StripeGateway+Refund.swift",
      "Sources/Shop/StripeGateway.swift",
    ]);
    expect((await engine().related("Sources/Shop/StripeGateway.swift")).imports).toEqual(["Sources/Core/Gateway.swift", "Sources/Core/Retry.swift"]);
  });

  it("brings a file added deep in a module to its importers, and follows a target moved by Package.swift", async () => {
    const repo = TempRepo.create(SWIFT);
    try {
      await withIndexedEngine(repo.root, { git: false }, async (engine) => {
        repo.write({ "Sources/Shop/Fees/Fee.swift": "func fee() {}\n" });
        await engine.index();
        expect((await engine.related("Tests/ShopTests/StripeGatewayTests.swift")).imports).toContain("Sources/Shop/Fees/Fee.swift");
        // `Tools/reports` becomes part of the tool's target: its `report()` is the tool's own now.
        repo.write({ "Package.swift": SWIFT["Package.swift"]!.replace('path: "Tools/shop-cli"', 'path: "Tools"') });
        await engine.index();
        expect(calleeEdges(await engine.callees("run"))).toContain("Tools/reports/Report.swift:report local");
      });
    } finally {
      repo.dispose();
    }
  });
});
